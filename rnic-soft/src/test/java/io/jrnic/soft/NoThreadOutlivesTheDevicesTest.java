package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Once every device is closed (a listener with an accepted stream among them), no non-daemon thread that jrnic
 * started is alive. The one exception is Netty's own: its event loops notify their termination on Netty's
 * GlobalEventExecutor (SingleThreadEventExecutor's termination promise), a non-daemon thread that Netty starts at
 * every event-loop-group shutdown and that ends after its quiet period (1 s). jrnic itself no longer puts work on
 * it (the listener's streams used to be a ChannelGroup on that executor).
 */
class NoThreadOutlivesTheDevicesTest {
    private static final String NETTY_GLOBAL_EXECUTOR = "globalEventExecutor-";

    @Test
    @Timeout(60)
    void afterTheLastDeviceClosesNoNonDaemonThreadOfJrnicIsAlive() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (SoftPair p = new SoftPair()) {
            var mr = p.a.pd.register(new byte[64], Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(1, p.b.pd.register(new byte[64], Access.LOCAL_WRITE).sge()));
            p.a.qp.postSend(SendWr.send().id(2).local(mr.sge(0, 8)).signaled());
            assertEquals(1, p.b.cq.take(Completion.array(1), Duration.ofSeconds(30)));
            assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("jrnic-")),
                    "the devices run threads named jrnic-*");
        }
        List<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon() && !before.contains(t))
                .map(Thread::getName)
                .filter(n -> !n.startsWith(NETTY_GLOBAL_EXECUTOR))
                .toList();
        assertTrue(left.isEmpty(), "non-daemon threads left: " + left);
    }
}
