package io.jrnic.nvmf.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The host reposts a response's receive before the command completes: a command sent from the completion's
 * callback may be answered at once, and its response must find a receive posted (DDP untagged, RFC 5041
 * section 8: a Send with no receive ends the stream with a TERMINATE). `jrnic nvmf bench` randwrite 4 KiB at qd 4
 * lost its queue this way (CI: "repost failed: ... QP state TERMINATE") when the completion came first.
 */
@Timeout(60)
class ReceiveRepostTest {
    private static final int ROUNDS = 20;

    @Test
    void aCommandSentFromAResponsesCallbackFindsItsReceivePosted() throws Exception {
        int qd = 2; // two slots, two receives: every receive is needed
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(LoopbackTest.NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(),
                        NvmfHost.Options.defaults(LoopbackTest.NQN).ioQueues(1).queueDepth(qd))) {
            AtomicReference<Throwable> failed = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(qd);
            for (int chain = 0; chain < qd; chain++) {
                next(host, chain, 0, failed, done);
            }
            assertEquals(true, done.await(30, TimeUnit.SECONDS), "chains still running");
            assertNull(failed.get(), () -> "a write failed: " + failed.get());
            assertEquals(1, target.controllerCount(), "the association was torn down");
        }
    }

    /**
     * One write; its callback (from the second on, it runs on the host's completion thread, being registered there
     * before the response can be polled) sends the next and then holds that thread while the target answers.
     */
    private static void next(NvmfHost host, int chain, int round, AtomicReference<Throwable> failed,
            CountDownLatch done) {
        CompletableFuture<Void> f;
        try {
            f = host.write(chain * 8L, ByteBuffer.allocateDirect(4096));
        } catch (InterruptedException e) {
            failed.compareAndSet(null, e);
            done.countDown();
            return;
        }
        f.whenComplete((v, e) -> {
            if (e != null) {
                failed.compareAndSet(null, e);
                done.countDown();
            } else if (round + 1 == ROUNDS) {
                done.countDown();
            } else {
                next(host, chain, round + 1, failed, done);
                try {
                    Thread.sleep(20); // widens the window in which the next response arrives; not a timed assertion
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
        });
    }
}
