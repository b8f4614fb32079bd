package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flood of streams that connect and never send an MPA Request (half-open MPA set-ups), against a listener with
 * the default options: the listener holds at most {@link ConnectOptions#DEFAULT_MAX_PENDING_SETUPS} of them
 * (file descriptors measured: the process's open descriptors minus the flood's own), the heap stays bounded, a
 * well-behaved client is served within its connect timeout in the middle of the flood, and everything is let go
 * when the flood ends. {@code -Djrnic.halfOpen=N} changes the size of the flood (default 10,000).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HalfOpenFloodTest {
    private static final int FLOOD = Integer.getInteger("jrnic.halfOpen", 10_000);

    private static UnixOperatingSystemMXBean os() {
        return (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    }

    private static long heapUsedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void tenThousandSilentStreamsHoldBoundedDescriptorsAndMemoryAndAClientIsStillServed() throws Exception {
        long spareFds = os().getMaxFileDescriptorCount() - os().getOpenFileDescriptorCount() - 2 * 1024 - 512;
        int flood = (int) Math.min(FLOOD, spareFds);
        assertTrue(flood >= 2 * ConnectOptions.DEFAULT_MAX_PENDING_SETUPS,
                "too few file descriptors for a flood beyond the limit: " + os().getMaxFileDescriptorCount());
        try (SoftPair.Side server = new SoftPair.Side("server"); SoftPair.Side client = new SoftPair.Side("client")) {
            Listener l = server.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(server.qp, AcceptOptions.defaults()));
            long fds0 = os().getOpenFileDescriptorCount();
            long heap0 = heapUsedAfterGc();
            List<SocketChannel> silent = new ArrayList<>(flood);
            long t0 = System.nanoTime();
            try {
                for (int i = 0; i < flood; i++) {
                    silent.add(SocketChannel.open(l.localAddress()));
                }
                long floodMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                // the listener has evicted (or timed out) every stream beyond its limit
                SoftPair.eventually(() -> dropped(server) >= flood - ConnectOptions.DEFAULT_MAX_PENDING_SETUPS);
                long serverFds = os().getOpenFileDescriptorCount() - fds0 - flood;
                long heap = heapUsedAfterGc() - heap0;

                long c0 = System.nanoTime();
                client.cm.connect(l.localAddress(), client.qp, ConnectOptions.defaults())
                        .get(ConnectOptions.defaults().connectTimeout().toMillis()
                                + ConnectOptions.defaults().mpaReplyTimeout().toMillis(), TimeUnit.MILLISECONDS);
                long connectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c0);
                System.out.println("HalfOpenFloodTest: " + flood + " silent streams opened in " + floodMillis
                        + " ms; listener holds " + serverFds + " descriptors (limit "
                        + ConnectOptions.DEFAULT_MAX_PENDING_SETUPS + "), heap +" + (heap >> 20)
                        + " MiB including the flood's own sockets; set-up failures " + server.dev.stats().setupFailures()
                        + "; a client set up in " + connectMillis + " ms during the flood");
                assertTrue(serverFds <= ConnectOptions.DEFAULT_MAX_PENDING_SETUPS + 16,
                        serverFds + " descriptors held by the listener for " + flood + " silent streams");
                assertTrue(heap < 256L << 20, (heap >> 20) + " MiB of heap for " + flood + " silent streams");
            } finally {
                for (SocketChannel s : silent) {
                    close(s);
                }
            }
            SoftPair.eventually(() -> os().getOpenFileDescriptorCount() <= fds0 + 16);
            // each silent stream is counted once: evicted, timed out, or closed by its peer while pending
            SoftPair.eventually(() -> counted(server) >= flood);
            var failures = server.dev.stats().setupFailures();
            assertEquals(flood, counted(server), String.valueOf(failures));
            assertTrue(failures.keySet().stream()
                    .allMatch(k -> k.equals("LISTENER_FULL") || k.equals("TIMEOUT") || k.equals("CONNECT_ERROR")),
                    String.valueOf(failures));
        }
    }

    /** Streams the listener let go of: evicted at the limit or closed at the Request timeout. */
    private static long dropped(SoftPair.Side server) {
        var f = server.dev.stats().setupFailures();
        return f.getOrDefault("LISTENER_FULL", 0L) + f.getOrDefault("TIMEOUT", 0L);
    }

    /** Set-up failures of every reason. */
    private static long counted(SoftPair.Side server) {
        return server.dev.stats().setupFailures().values().stream().mapToLong(Long::longValue).sum();
    }

    private static void close(SocketChannel s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing a reset stream
        }
    }
}
