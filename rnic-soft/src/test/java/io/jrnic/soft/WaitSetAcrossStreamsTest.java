package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.epoll.Epoll;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A blocked consumer waits on its QP's socket in an epoll set of the QP's own, where the socket stays from the first
 * wait on a stream (spec-notes/engine.md, "Blocking waiters"): a QP reset and connected anew waits on the new
 * stream's socket, which the set holds beside the event loop's own (seen in /proc/self/fdinfo), even when the new
 * socket got the old one's number. Every message is checked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitSetAcrossStreamsTest {
    private static final int MESSAGES = 10;

    @BeforeEach
    void epoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "waiting on the socket needs the epoll transport");
        Assumptions.assumeTrue(new File("/proc/self/fdinfo").isDirectory(), "needs /proc/self/fdinfo");
    }

    @Test
    void aQpConnectedAnewWaitsOnItsNewStreamsSocket() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            byte[] got = new byte[64];
            MemoryRegion dst = b.pd.register(got, Access.LOCAL_WRITE);
            for (int round = 1; round <= 2; round++) {
                byte[] sent = new byte[64];
                Arrays.fill(sent, (byte) round);
                MemoryRegion src = a.pd.register(sent, Access.LOCAL_WRITE);
                Connection c = a.cm.connect(l.localAddress(), a.qp, ConnectOptions.defaults().peerToPeer(RtrType.WRITE))
                        .get(10, TimeUnit.SECONDS);
                SoftPair.eventually(() -> b.qp.state() == QpState.RTS);
                int fd = ((AbstractEpollStreamChannel) SoftPair.engineOf(b.qp).channel()).fd().intValue();
                long waits = b.dev.stats().counter("rxConsumerWaits");
                for (int m = 0; m < MESSAGES; m++) {
                    Arrays.fill(got, (byte) 0);
                    b.qp.postRecv(RecvWr.of(m, dst.sge()));
                    long before = b.dev.stats().counter("rxConsumerWaits");
                    CompletableFuture<Completion> taken = CompletableFuture.supplyAsync(() -> take(b));
                    // let B block before the message comes (on its socket, unless its stream is not ready for that:
                    // then it waits on the CQ, and the message ends that wait too)
                    for (int i = 0; i < 200 && b.dev.stats().counter("rxConsumerWaits") == before; i++) {
                        Thread.sleep(1);
                    }
                    a.qp.postSend(SendWr.send().id(m).local(src.sge()).signaled());
                    Completion r = taken.get(10, TimeUnit.SECONDS);
                    assertEquals(CompletionOpcode.RECV, r.opcode());
                    assertEquals(CompletionStatus.SUCCESS, r.status());
                    assertArrayEquals(sent, got);
                    assertEquals(CompletionStatus.SUCCESS, a.awaitOne().status());
                }
                assertTrue(b.dev.stats().counter("rxConsumerWaits") > waits,
                        "round " + round + ": B never waited on its socket");
                assertEquals(2, epollSetsHolding(fd), "round " + round + ": B's socket (descriptor " + fd
                        + ") is in its event loop's set and in its QP's wait set");
                c.disconnect().get(10, TimeUnit.SECONDS);
                SoftPair.eventually(() -> a.qp.connection() == null && b.qp.connection() == null);
                for (SoftPair.Side s : new SoftPair.Side[] {a, b}) {
                    if (s.qp.state() != QpState.IDLE) {
                        if (s.qp.state() != QpState.ERROR) {
                            s.qp.toError();
                        }
                        s.qp.reset();
                    }
                    SoftPair.eventually(() -> s.qp.state() == QpState.IDLE);
                    s.await(s.cq.size()); // flushed work requests, if any
                }
                src.close();
            }
        }
    }

    private static Completion take(SoftPair.Side s) {
        Completion[] c = Completion.array(1);
        try {
            if (s.cq.take(c, Duration.ofSeconds(10)) != 1) {
                throw new AssertionError("no completion in 10 s");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return c[0].snapshot();
    }

    /** How many epoll sets of this process hold descriptor {@code fd} ("tfd:" lines of /proc/self/fdinfo). */
    private static int epollSetsHolding(int fd) throws IOException {
        Pattern entry = Pattern.compile("(?m)^tfd:\\s+" + fd + "\\s");
        int n = 0;
        File[] infos = new File("/proc/self/fdinfo").listFiles();
        for (File f : infos == null ? new File[0] : infos) {
            try {
                if (entry.matcher(Files.readString(f.toPath())).find()) {
                    n++;
                }
            } catch (IOException closedMeanwhile) {
                // a descriptor closed while listed: not an epoll set of ours
            }
        }
        return n;
    }
}
