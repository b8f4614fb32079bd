package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's own rules, without a peer: state on binding, the Terminate and flush rules of RFC 5040
 * section 6 (which WR a received Terminate fails, posting order of the flush), orderly close against LLP
 * error, and the queue depth. The stream is an EmbeddedChannel; every upcall is recorded as a line.
 */
class QpEngineTest {
    private final MemoryTable table = new MemoryTable(16);
    private final List<String> events = new ArrayList<>();
    private final ByteBuf memory = Unpooled.buffer(4096);
    private EmbeddedChannel ch;
    private QpEngine qp;

    private QpEngine engine(int depth) {
        return new QpEngine(table, 1, depth, depth, new QpListener() {
            @Override
            public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
                events.add(trigger.name());
            }

            @Override
            public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                events.add("send " + e.token + " " + status);
                return true;
            }

            @Override
            public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                events.add("recv " + e.token + " " + status);
                return true;
            }
        });
    }

    private void bind() {
        qp = engine(16);
        ch = new EmbeddedChannel();
        ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
        qp.bind(ch, new StreamParams(true, false, false, 16 * 1024, 4, 4, RtrType.NONE, true, 0), "mpa", null, null);
        ch.runPendingTasks();
    }

    @AfterEach
    void close() {
        if (ch != null) {
            ch.finishAndReleaseAll();
        }
        memory.release();
    }

    private SqEntry read(String token) {
        SoftRegion r = table.register(memory, 0, AccessFlags.LOCAL_WRITE, 1, 0);
        SqEntry e = new SqEntry().reuse(token, SqOpcode.RDMA_READ);
        e.sgl.add(r, 0, 64);
        e.remoteStag = 0x1234;
        return e;
    }

    private SqEntry send(String token) {
        SoftRegion r = table.register(memory, 0, AccessFlags.LOCAL_WRITE, 1, 0);
        SqEntry e = new SqEntry().reuse(token, SqOpcode.SEND);
        e.sgl.add(r, 0, 16);
        return e;
    }

    private RqEntry recv(String token) {
        SoftRegion r = table.register(memory, 0, AccessFlags.LOCAL_WRITE, 1, 0);
        RqEntry e = new RqEntry(null).reuse(token);
        e.sgl.add(r, 0, 256);
        return e;
    }

    /** The Terminates written to the stream, decoded in the RFC layout. */
    private List<Terminate> terminatesWritten() {
        List<Terminate> out = new ArrayList<>();
        for (ByteBuf u : EmbeddedQp.ulpdusWritten(ch)) {
            int control = u.getUnsignedShort(u.readerIndex());
            if ((control & 0x8000) == 0 && (control & 0xF) == 0x7) {
                out.add(TerminateDecoder.decode(u, u.readerIndex(), u.readableBytes(), TerminateDecoder.Mode.STRICT));
            }
            u.release();
        }
        return out;
    }

    @Test
    void bindingMovesToRtsAndReportsConnected() {
        bind();
        assertEquals(io.jrnic.verbs.QpState.RTS, qp.state());
        assertEquals(List.of("CONNECTED"), events);
    }

    @Test
    void aReceivedTerminateFailsTheWorkRequestInProgressAndFlushesTheRestInPostingOrder() {
        bind();
        qp.inbox().postRecv(recv("r1"));
        qp.inbox().postSend(read("read"));
        qp.inbox().postSend(send("send"));
        ch.runPendingTasks();
        terminatesWritten(); // the Read Request and the Send went out; the Read awaits its response
        events.clear();

        qp.teardown.terminateReceived(Terminate.of(RdmapError.ACCESS_RIGHTS));

        assertEquals(List.of("TERMINATE_RECEIVED", "send read REMOTE_ACCESS_ERROR", "send send WR_FLUSH_ERROR",
                "recv r1 WR_FLUSH_ERROR"), events);
        assertEquals(io.jrnic.verbs.QpState.ERROR, qp.state());
        assertFalse(ch.isOpen());
    }

    @Test
    void anOrderlyCloseWithNothingOutstandingEndsIdleAndFlushesTheReceives() {
        bind();
        qp.inbox().postRecv(recv("r1"));
        ch.runPendingTasks();
        events.clear();

        ch.close();

        assertEquals(List.of("CLOSE_STARTED", "CLOSE_COMPLETED", "recv r1 WR_FLUSH_ERROR"), events);
        assertEquals(io.jrnic.verbs.QpState.IDLE, qp.state());
    }

    /**
     * A send accepted while the QP was in RTS but handed to the owner only after the stream closed in order (the
     * verbs layer checked RTS, then the close ran before the WR reached the inbox): it can never go out on that
     * stream, so it is flushed rather than left waiting in the SQ of an IDLE QP.
     */
    @Test
    void aSendThatReachesTheOwnerAfterAnOrderlyCloseIsFlushed() {
        bind();
        ch.close();
        assertEquals(io.jrnic.verbs.QpState.IDLE, qp.state());
        events.clear();

        qp.inbox().postSend(send("late"));
        ch.runPendingTasks();

        assertEquals(List.of("send late WR_FLUSH_ERROR"), events);
        assertEquals(io.jrnic.verbs.QpState.IDLE, qp.state());
    }

    /**
     * A receive posted once an orderly close left the QP in IDLE (the verbs layer saw IDLE, which takes receives) is
     * kept for the QP's next connection, not flushed: only what was posted before the close is.
     */
    @Test
    void aReceivePostedAfterAnOrderlyCloseIsKeptForTheNextConnection() {
        bind();
        ch.close();
        assertEquals(io.jrnic.verbs.QpState.IDLE, qp.state());
        events.clear();

        qp.inbox().postRecv(recv("late"));
        ch.runPendingTasks();

        assertEquals(List.of(), events);
        assertEquals(io.jrnic.verbs.QpState.IDLE, qp.state());
    }

    @Test
    void aStreamThatEndsInsideAnFpduIsAnLlpErrorNotAnOrderlyClose() {
        bind();
        qp.inbox().postRecv(recv("r1"));
        ch.runPendingTasks();
        events.clear();

        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x00, 0x40, 0x12, 0x34})); // ULPDU_Length 64, 2 octets of it
        ch.close();

        assertEquals(List.of("LLP_ERROR", "recv r1 WR_FLUSH_ERROR"), events);
        assertEquals(io.jrnic.verbs.QpState.ERROR, qp.state());
    }

    @Test
    void aCloseWhileAReadIsOutstandingIsAnLlpErrorThatFlushesIt() {
        bind();
        qp.inbox().postSend(read("read"));
        ch.runPendingTasks();
        events.clear();

        ch.close();

        assertEquals(List.of("LLP_ERROR", "send read WR_FLUSH_ERROR"), events);
        assertEquals(io.jrnic.verbs.QpState.ERROR, qp.state());
    }

    @Test
    void aLocallyDetectedErrorSendsItsTerminateThenClosesAndFlushes() {
        bind();
        qp.inbox().postSend(read("read"));
        ch.runPendingTasks();
        terminatesWritten();
        events.clear();

        qp.teardown.terminate(Terminate.of(RdmapError.CATASTROPHIC_STREAM), null, null);

        List<Terminate> sent = terminatesWritten();
        assertEquals(1, sent.size());
        assertEquals(RdmapError.CATASTROPHIC_STREAM, sent.get(0).error());
        // an EmbeddedChannel is not a DuplexChannel: the stream closes at once, which ends TERMINATE
        assertEquals(List.of("TERMINATE_SENT", "TERMINATE_DONE", "send read WR_FLUSH_ERROR"), events);
        assertEquals(io.jrnic.verbs.QpState.ERROR, qp.state());
    }

    @Test
    void postingBeyondTheQueueDepthIsRefused() {
        QpEngine unbound = engine(4);
        for (int i = 0; i < 4; i++) {
            unbound.inbox().postSend(send("s" + i));
            unbound.inbox().postRecv(recv("r" + i));
        }
        assertThrows(IllegalStateException.class, () -> unbound.inbox().postSend(send("over")));
        assertThrows(IllegalStateException.class, () -> unbound.inbox().postRecv(recv("over")));
    }
}
