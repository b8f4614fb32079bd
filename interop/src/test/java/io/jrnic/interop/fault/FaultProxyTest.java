package io.jrnic.interop.fault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.fault.FaultPlan.Direction;
import io.netty.channel.DefaultEventLoop;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The proxy's faults, seen from a plain socket client and a sink that records what arrived and how it ended. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultProxyTest {
    private static final InetSocketAddress LO = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    /** What the sink read, and whether the stream ended by FIN (true) or a reset (false). */
    record Arrived(byte[] bytes, boolean fin) {
    }

    /** A one-connection sink on loopback that reads until the stream ends. */
    static final class Sink implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        final CompletableFuture<Arrived> arrived = new CompletableFuture<>();

        Sink() throws IOException {
            Thread t = new Thread(() -> {
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    byte[] b = new byte[8192];
                    int n;
                    try {
                        while ((n = in.read(b)) >= 0) {
                            got.write(b, 0, n);
                        }
                        arrived.complete(new Arrived(got.toByteArray(), true));
                    } catch (IOException reset) {
                        arrived.complete(new Arrived(got.toByteArray(), false));
                    }
                } catch (IOException e) {
                    arrived.completeExceptionally(e);
                }
            }, "sink");
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) server.getLocalSocketAddress();
        }

        Arrived await() throws Exception {
            return arrived.get(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Sends {@code data} through a proxy with {@code plan} to a sink; returns what arrived and the proxy's events. */
    private static Object[] through(FaultPlan plan, byte[] data) throws Exception {
        try (Sink sink = new Sink(); FaultProxy p = FaultProxy.start(LO, sink.address(), plan)) {
            try (Socket c = new Socket(InetAddress.getLoopbackAddress(), p.address().getPort())) {
                OutputStream out = c.getOutputStream();
                try {
                    out.write(data);
                    c.shutdownOutput();
                } catch (IOException cutUnderUs) {
                    // a cut may reset the client while it writes
                }
                Arrived a = sink.await();
                return new Object[] {a, p.events()};
            }
        }
    }

    @Test
    void randomSplitsAndDelaysDeliverEveryByteInOrder() throws Exception {
        byte[] data = random(1 << 20, 1);
        Arrived a = (Arrived) through(FaultPlan.of(7).withSplit(1500), data)[0];
        assertArrayEquals(data, a.bytes());
        assertTrue(a.fin());
        byte[] small = random(2000, 2);
        Arrived d = (Arrived) through(FaultPlan.of(7).withSplit(64).withDelay(1), small)[0];
        assertArrayEquals(small, d.bytes());
        assertTrue(d.fin());
    }

    @Test
    void aCutBehindDelayedChunksComesAfterAllOfThem() throws Exception {
        // the cut was timed like the last chunk before it, on its own timer, and mostly went first: that chunk lost
        byte[] data = random(2000, 9);
        for (long seed = 1; seed <= 4; seed++) {
            Arrived a = (Arrived) through(FaultPlan.of(seed).withSplit(64).withDelay(1).withCut(1000, false), data)[0];
            assertArrayEquals(Arrays.copyOf(data, 1000), a.bytes(), "seed " + seed);
            assertTrue(a.fin());
        }
    }

    @Test
    void delayedChunksLeaveInOrderWhateverTheirReleaseTimes() throws Exception {
        // a pause of the loop thread can leave a chunk due after the next one; each on its own timer, the next
        // one overtook it (the flaky reordering of randomSplitsAndDelaysDeliverEveryByteInOrder)
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            List<Integer> ran = new CopyOnWriteArrayList<>();
            List<Long> early = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            loop.submit(() -> {
                ReleaseQueue q = new ReleaseQueue(loop);
                long now = System.nanoTime();
                for (int i = 0; i < 4; i++) { // due in 15, 10, 5, 0 ms
                    int k = i;
                    long at = now + TimeUnit.MILLISECONDS.toNanos(15 - 5 * i);
                    q.add(at, () -> {
                        ran.add(k);
                        early.add(Math.max(0, at - System.nanoTime()));
                        if (k == 3) {
                            done.complete(null);
                        }
                    });
                }
                assertTrue(ran.isEmpty(), "nothing ran before the first was due");
            }).sync();
            done.get(10, TimeUnit.SECONDS);
            assertEquals(List.of(0, 1, 2, 3), ran);
            assertEquals(List.of(0L, 0L, 0L, 0L), early, "none ran before its time");
            // due with nothing ahead: at once, in the caller (the relay without a delay writes inline)
            loop.submit(() -> {
                ReleaseQueue q = new ReleaseQueue(loop);
                q.add(System.nanoTime(), () -> ran.add(4));
                assertEquals(5, ran.size());
            }).sync();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void theSameSeedGivesTheSameFaults() throws Exception {
        byte[] data = random(100_000, 3);
        FaultPlan plan = FaultPlan.of(11).withSplit(700).withFlip(5000);
        Object[] first = through(plan, data);
        Object[] second = through(plan, data);
        assertEquals(first[1], second[1]);
        assertTrue(((List<?>) first[1]).size() > 100, "chunks are logged");
        assertTrue(!first[1].equals(through(FaultPlan.of(12).withSplit(700).withFlip(5000), data)[1]),
                "another seed, other chunks");
    }

    @Test
    void aFlipInvertsExactlyTheChosenByte() throws Exception {
        byte[] data = random(10_000, 4);
        Arrived a = (Arrived) through(FaultPlan.of(1).withSplit(333).withFlip(4321), data)[0];
        byte[] expected = data.clone();
        expected[4321] ^= (byte) 0xFF;
        assertArrayEquals(expected, a.bytes());
    }

    @Test
    void aFinCutDeliversExactlyTheBytesBeforeIt() throws Exception {
        byte[] data = random(50_000, 5);
        Arrived a = (Arrived) through(FaultPlan.of(1).withSplit(1000).withCut(12_345, false), data)[0];
        assertArrayEquals(Arrays.copyOf(data, 12_345), a.bytes());
        assertTrue(a.fin());
    }

    @Test
    void aResetCutResetsTheReceiverAfterAtMostTheBytesBeforeIt() throws Exception {
        byte[] data = random(50_000, 6);
        Arrived a = (Arrived) through(FaultPlan.of(1).withCut(20_000, true), data)[0];
        assertTrue(a.bytes().length <= 20_000, a.bytes().length + " bytes");
        assertArrayEquals(Arrays.copyOf(data, a.bytes().length), a.bytes());
        assertTrue(!a.fin(), "reset, not FIN");
    }

    @Test
    void aStallClosesTheWindowOnTheSender() throws Exception {
        try (Sink sink = new Sink();
                FaultProxy p = FaultProxy.start(LO, sink.address(), FaultPlan.of(1).withStall(1, 0));
                SocketChannel c = SocketChannel.open(p.address())) {
            c.configureBlocking(false);
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            long accepted = 0;
            int zeroWrites = 0;
            for (int i = 0; i < 100_000 && zeroWrites < 200; i++) {
                chunk.clear();
                int n = c.write(chunk);
                accepted += n;
                if (n == 0) {
                    zeroWrites++;
                    Thread.sleep(1);
                } else {
                    zeroWrites = 0;
                }
            }
            assertEquals(200, zeroWrites, "the sender never saw a full window");
            assertTrue(accepted < 64L << 20, accepted + " bytes accepted by a stalled proxy");
        }
    }

    @Test
    void onlyLoopbackAddressesAreAccepted() {
        InetSocketAddress elsewhere = new InetSocketAddress("192.0.2.1", 9);
        assertThrows(IllegalArgumentException.class, () -> FaultProxy.start(LO, elsewhere, FaultPlan.of(1)));
    }

    @Test
    void faultsApplyToTheChosenDirectionOnly() throws Exception {
        // a flip planned for target-to-client leaves client-to-target bytes untouched
        byte[] data = random(5000, 8);
        Arrived a = (Arrived) through(FaultPlan.of(1).withFlip(10).on(Direction.TARGET_TO_CLIENT), data)[0];
        assertArrayEquals(data, a.bytes());
    }
}
