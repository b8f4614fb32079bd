package io.jrnic.soft;

import static io.jrnic.soft.HandOverFixture.socketPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.soft.HandOverFixture.Ep;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.HandOverVerdict;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Once every device is closed (streams connected, accepted by a listener and handed over among them), no
 * non-daemon thread started meanwhile is alive, and none of the devices' event loops ({@code jrnic-soft-*}): a
 * device's close returns once its loops ended. Netty's GlobalEventExecutor (a non-daemon thread that lives for a
 * 1 s quiet period after its last task) would be one, were a loop's termination listened to (Netty's own groups and
 * its resolver group do): SoftTransport's loops are a group of jrnic's and its connects resolve no names.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NoThreadOutlivesTheDevicesTest {

    @Test
    void afterTheLastEpollDeviceClosesNoThreadOfJrnicOrNettyIsAlive() throws Exception {
        Set<Thread> before = threadsWithoutNettysGlobalOne();
        try (SoftPair p = new SoftPair()) {
            sendOne(p);
            assertTrue(p.a.dev.attributes().vendor().contains("(epoll)"), p.a.dev.attributes().vendor());
            handOverOnePair(p.a, p.b); // java.nio sockets: on a NIO loop of the epoll device's own
            assertTrue(alive().stream().anyMatch(t -> t.getName().startsWith("jrnic-soft-nio")),
                    "the hand-over ran on the devices' NIO loops");
        }
        assertNoneLeft(before);
    }

    @Test
    void afterTheLastNioDeviceClosesNoThreadOfJrnicOrNettyIsAlive() throws Exception {
        Set<Thread> before = threadsWithoutNettysGlobalOne();
        String old = System.getProperty("jrnic.soft.epoll");
        System.setProperty("jrnic.soft.epoll", "false");
        try (SoftPair p = new SoftPair()) {
            assertTrue(p.a.dev.attributes().vendor().contains("(nio)"), p.a.dev.attributes().vendor());
            sendOne(p);
            handOverOnePair(p.a, p.b);
        } finally {
            if (old == null) {
                System.clearProperty("jrnic.soft.epoll");
            } else {
                System.setProperty("jrnic.soft.epoll", old);
            }
        }
        assertNoneLeft(before);
    }

    /** The threads alive now, once a GlobalEventExecutor thread of an earlier test (if any) has ended. */
    private static Set<Thread> threadsWithoutNettysGlobalOne() throws InterruptedException {
        for (Thread t : alive()) {
            if (t.getName().startsWith("globalEventExecutor-")) {
                t.join(); // ends after its quiet period (bounded by the test's timeout)
            }
        }
        return alive();
    }

    private static Set<Thread> alive() {
        return Thread.getAllStackTraces().keySet();
    }

    private static void sendOne(SoftPair p) throws InterruptedException {
        var mr = p.a.pd.register(new byte[64], Access.LOCAL_WRITE);
        p.b.qp.postRecv(RecvWr.of(1, p.b.pd.register(new byte[64], Access.LOCAL_WRITE).sge()));
        p.a.qp.postSend(SendWr.send().id(2).local(mr.sge(0, 8)).signaled());
        assertEquals(1, p.b.cq.take(Completion.array(1), Duration.ofSeconds(30)));
        assertTrue(alive().stream().anyMatch(t -> t.getName().startsWith("jrnic-soft-")),
                "the devices run event loops named jrnic-soft-*");
    }

    /** Hands both ends of a loopback java.nio pair over to new QPs of {@code a} and {@code b}. */
    private static void handOverOnePair(SoftPair.Side a, SoftPair.Side b) throws Exception {
        SocketChannel[] s = socketPair();
        var fa = a.cm.handOver(s[0], ByteBuffer.allocate(0), Ep.create(a, "A2").qp(),
                HandOverOptions.initiator(ConnectOptions.defaults().peerToPeer(RtrType.WRITE)));
        var fb = b.cm.handOver(s[1], ByteBuffer.allocate(0), Ep.create(b, "B2").qp(),
                HandOverOptions.responder(ConnectOptions.defaults())
                        .onRequest(offered -> HandOverVerdict.accept(AcceptOptions.defaults())));
        assertEquals(QpState.RTS, fa.get(30, TimeUnit.SECONDS).queuePair().state());
        assertEquals(QpState.RTS, fb.get(30, TimeUnit.SECONDS).queuePair().state());
    }

    private static void assertNoneLeft(Set<Thread> before) {
        List<String> left = alive().stream()
                .filter(t -> t.isAlive() && !before.contains(t))
                .filter(t -> !t.isDaemon() || t.getName().startsWith("jrnic-soft-"))
                .map(t -> t.getName() + (t.isDaemon() ? " (daemon)" : ""))
                .toList();
        assertTrue(left.isEmpty(), "threads left after the last device closed: " + left);
    }
}
