package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import io.jrnic.verbs.spi.InputWaiter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An empty poll lets the provider read a QP's stream on the polling thread only for what the peer may still send that
 * completes on the CQ polled (a Read's response on the send CQ, a message for a posted receive on the receive CQ); an
 * explicit {@link CompletionQueue#progress()} always does; a blocking take waits on the QP's input only then too.
 */
class PollProgressTest {
    /** One fake device; QP a with its own send and receive CQs, connected to b. */
    private static final class Pair implements AutoCloseable {
        final RdmaDevice dev = Rdma.open("fake");
        final ProtectionDomain pd = dev.allocatePd();
        final CompletionQueue sendCq = dev.createCq(16);
        final CompletionQueue recvCq = dev.createCq(16);
        final QueuePair a = pd.createQp(QpInit.rc(sendCq, recvCq));
        final QueuePair b = pd.createQp(QpInit.rc(dev.createCq(16)));
        final FakeQp fakeA = FakeProvider.last().qp(a);
        final MemoryRegion mr = pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
        final Completion[] wc = Completion.array(4);

        Pair() throws Exception {
            ConnectionManager cm = dev.connectionManager();
            Listener l = cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            CompletableFuture<Connection> passive = new CompletableFuture<>();
            l.onConnectRequest(req -> req.accept(b, AcceptOptions.defaults()).thenAccept(passive::complete));
            cm.connect(l.localAddress(), a, ConnectOptions.defaults()).get(5, TimeUnit.SECONDS);
            passive.get(5, TimeUnit.SECONDS);
        }

        /** Progress calls an empty poll of {@code cq} made. */
        int progressOfEmptyPoll(CompletionQueue cq) {
            int before = fakeA.progressCalls.get();
            assertEquals(0, cq.poll(wc));
            return fakeA.progressCalls.get() - before;
        }

        @Override
        public void close() {
            dev.close();
        }
    }

    @Test
    void anEmptyPollReadsTheStreamOnlyForWhatThePeerStillOwesTheCqPolled() throws Exception {
        try (Pair p = new Pair()) {
            p.fakeA.autoExecute = false; // posted WRs stay outstanding
            assertEquals(0, p.progressOfEmptyPoll(p.sendCq), "nothing posted");
            assertEquals(0, p.progressOfEmptyPoll(p.recvCq), "nothing posted");

            p.a.postSend(SendWr.rdmaWrite().local(p.mr.sge(0, 8)).remote(p.mr.stag(), 0).signaled());
            p.a.postSend(SendWr.send().local(p.mr.sge(0, 8)).signaled());
            assertEquals(0, p.progressOfEmptyPoll(p.sendCq), "a Write's and a Send's completions come of sending alone");
            assertEquals(1, countProgress(p, () -> p.sendCq.progress()), "an explicit progress always reads");

            p.a.postSend(SendWr.rdmaRead().local(p.mr.sge(8, 8)).remote(p.mr.stag(), 0).signaled());
            assertEquals(1, p.progressOfEmptyPoll(p.sendCq), "a Read awaits its response");
            assertEquals(0, p.progressOfEmptyPoll(p.recvCq), "no receive posted");

            p.b.postRecv(RecvWr.of(99, p.mr.sge(0, 64))); // for a's Send
            p.fakeA.executeAll(); // the Write, the Send and the Read complete
            assertEquals(3, p.sendCq.poll(p.wc));
            assertEquals(0, p.progressOfEmptyPoll(p.sendCq), "the Read's response came");

            p.a.postRecv(RecvWr.of(7, p.mr.sge(0, 64)));
            assertEquals(1, p.progressOfEmptyPoll(p.recvCq), "a receive is posted");
            assertEquals(0, p.progressOfEmptyPoll(p.sendCq));
            p.b.postSend(SendWr.send().local(p.mr.sge(0, 8))); // consumes it
            assertEquals(1, p.recvCq.poll(p.wc));
            assertEquals(7, p.wc[0].id());
            assertEquals(0, p.progressOfEmptyPoll(p.recvCq), "the receive completed");

            p.a.postRecv(RecvWr.of(8, p.mr.sge(0, 64)));
            p.a.toError(); // flushed
            assertEquals(1, p.recvCq.poll(p.wc));
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, p.wc[0].status());
            assertEquals(0, p.progressOfEmptyPoll(p.recvCq), "a flushed receive is owed nothing");
        }
    }

    @Test
    void aBlockingTakeWaitsOnTheQpsInputOnlyWhenThePeerOwesTheCqSomething() throws Exception {
        try (Pair p = new Pair()) {
            AtomicInteger awaits = new AtomicInteger();
            p.fakeA.waiter = new InputWaiter() {
                @Override
                public boolean await(long nanos) {
                    awaits.incrementAndGet();
                    return false;
                }

                @Override
                public void wake() {
                }
            };
            assertEquals(0, p.recvCq.take(p.wc, Duration.ofMillis(20)));
            assertEquals(0, awaits.get(), "no receive posted: the take waits on the CQ, not on the stream");
            p.a.postRecv(RecvWr.of(1, p.mr.sge(0, 64)));
            assertEquals(0, p.recvCq.take(p.wc, Duration.ofMillis(20)));
            assertTrue(awaits.get() > 0, "a receive posted: the take waits on the QP's input");
        }
    }

    private static int countProgress(Pair p, Runnable r) {
        int before = p.fakeA.progressCalls.get();
        r.run();
        return p.fakeA.progressCalls.get() - before;
    }
}
