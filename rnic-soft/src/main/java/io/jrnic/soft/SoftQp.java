package io.jrnic.soft;

import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.engine.Counter;
import io.jrnic.soft.engine.LocalOperationException;
import io.jrnic.soft.engine.QpCounters;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.engine.QpListener;
import io.jrnic.soft.engine.RecvInfo;
import io.jrnic.soft.engine.RqEntry;
import io.jrnic.soft.engine.Sgl;
import io.jrnic.soft.engine.SqEntry;
import io.jrnic.soft.engine.SqOpcode;
import io.jrnic.soft.engine.Status;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.StagMemo;
import io.jrnic.soft.mem.SoftRegion;
import io.jrnic.soft.net.TcpFigures;
import java.util.List;
import java.util.Map;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.IllegalQpTransitionException;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpTrigger;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.Stats;
import io.jrnic.verbs.TerminateInfo;
import io.jrnic.verbs.WorkRequest;
import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
import io.jrnic.verbs.spi.QpUpcalls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A queue pair's provider part: translates the API's lent work requests into engine entries (SGEs
 * resolved in the STag table, inline payloads copied at post time) and the engine's reports into
 * upcalls (completions, QP triggers with the Terminate triple).
 *
 * <p>Entries come from two preallocated rings sized by the QP's limits: the API admits at most
 * maxSendWr (maxRecvWr) outstanding WRs and the engine retires them in posting order (RDMAC verbs: a
 * queue's completions are in order), so the slot a post takes was retired a full ring earlier.
 */
final class SoftQp implements QpSpi, QpListener {
    private final SoftPd pd;
    private final QpUpcalls up;
    private final QpEngine engine;
    private final Completion completion = new Completion();
    private final SqEntry[] sqRing;
    /**
     * The posting sides' STag lookups, each keeping the slot of the last STag found ({@link StagMemo}): a poster
     * mostly names the region it named before. One per side, since sends and receives are posted under different
     * monitors (verbs' PostedWork).
     */
    private final StagMemo sendStags;
    private final StagMemo recvStags;
    private long sqPosted;
    private final RqEntry[] rqRing;
    private long rqPosted;

    SoftQp(SoftPd pd, QpSpec spec, QpUpcalls up) {
        this.pd = pd;
        this.up = up;
        this.engine = new QpEngine(pd.device.table(), pd.id, spec.maxSendWr(), spec.maxRecvWr(),
                spec.srq() == null ? null : ((SoftSrq) spec.srq()).queue, this);
        this.sendStags = new StagMemo(pd.device.table());
        this.recvStags = new StagMemo(pd.device.table());
        this.sqRing = new SqEntry[Math.max(1, spec.maxSendWr())];
        for (int i = 0; i < sqRing.length; i++) {
            sqRing[i] = new SqEntry();
        }
        this.rqRing = new RqEntry[spec.srq() == null ? Math.max(1, spec.maxRecvWr()) : 0];
        for (int i = 0; i < rqRing.length; i++) {
            rqRing[i] = new RqEntry(null);
        }
        pd.device.counters().add(engine.counters());
    }

    /** A CQ poller found nothing: it reads the stream itself (receive in place). */
    @Override
    public boolean progress() {
        return engine.inbox().receiveInPlace();
    }

    /** The consumer will block on its completion channel: the event loop reads the stream again. */
    @Override
    public void pollingStops() {
        engine.inbox().pollingStops();
    }

    /** A consumer blocked on a CQ of this QP alone may wait on the stream's socket itself (one wake-up). */
    @Override
    public io.jrnic.verbs.spi.InputWaiter inputWaiter() {
        return engine.inbox().inputWaiter();
    }

    @Override
    public Stats stats() {
        return DeviceStats.snapshot(List.of(engine.counters()), TcpFigures.of(engine.channel()), Map.of());
    }

    QpEngine engine() {
        return engine;
    }

    @Override
    public void postSend(SendWr[] wrs, int offset, int count) {
        // every entry is built before any is queued: a post that throws leaves neither ring nor engine changed
        long first = sqPosted;
        try {
            for (int i = 0; i < count; i++) {
                entry(wrs[offset + i]);
            }
        } catch (RuntimeException e) {
            sqPosted = first;
            throw e;
        }
        for (int i = 0; i < count; i++) {
            engine.inbox().enqueueSend(sqRing[(int) ((first + i) % sqRing.length)]);
        }
        engine.inbox().kick();
    }

    @Override
    public void postRecv(RecvWr[] wrs, int offset, int count) {
        for (int i = 0; i < count; i++) {
            RecvWr wr = wrs[offset + i];
            resolve(wr, rqRing[(int) ((rqPosted + i) % rqRing.length)].reuse(wr).sgl, recvStags);
        }
        for (int i = 0; i < count; i++) {
            engine.inbox().enqueueRecv(rqRing[(int) (rqPosted++ % rqRing.length)]);
        }
        engine.inbox().kick();
    }

    private SqEntry entry(SendWr wr) {
        SqEntry e = sqRing[(int) (sqPosted++ % sqRing.length)].reuse(wr, EngineEnums.opcode(wr.opcode()));
        e.signaled = wr.isSignaled();
        e.fence = wr.isFenced();
        e.solicited = wr.isSolicited();
        e.remoteStag = wr.remoteStag();
        e.remoteTo = wr.remoteTo();
        e.invalidateStag = wr.invalidateStag();
        e.compareAdd = wr.compareAdd();
        e.swap = wr.swap();
        e.immediateData = wr.immediateData();
        if (wr.isInline()) {
            ByteBuf copy = Unpooled.wrappedBuffer(new byte[(int) wr.totalLength()]).clear();
            Sgl tmp = resolve(wr, new Sgl(), sendStags);
            tmp.gather(0, (int) wr.totalLength(), copy);
            e.sgl.add(SoftRegion.scratch(copy), 0, copy.capacity());
        } else {
            resolve(wr, e.sgl, sendStags);
        }
        switch (wr.opcode()) {
            case REG_MR -> e.localAction = () -> fastRegister(wr);
            case LOCAL_INVALIDATE -> e.localAction = () -> localInvalidate(wr.invalidateStag());
            case BIND_MW -> {
                SoftRegion parent = e.sgl.count() == 1 ? e.sgl.region(0) : null;
                int off = e.sgl.count() == 1 ? e.sgl.offset(0) : 0;
                long len = e.sgl.total();
                e.localAction = () -> bind(wr, parent, off, len);
            }
            default -> {
            }
        }
        return e;
    }

    /**
     * The regions a work request's SGEs name, added to {@code sgl}; a gone or mismatched STag as the always-invalid entry
     * (the engine's checks then fail the WR). Also the SRQ's ({@link SoftSrq}).
     */
    static Sgl resolve(WorkRequest wr, Sgl sgl, StagMemo stags) {
        for (int i = 0; i < wr.sgeCount(); i++) {
            SoftRegion r = stags.lookup(wr.sgeRegion(i).stag());
            sgl.add(r == null ? MemoryTable.invalidEntry() : r, wr.sgeOffset(i), wr.sgeLength(i));
        }
        return sgl;
    }

    /** REG_MR (RDMAC verbs fast registration): maps the memory into the fast-reg entry, with the new key. */
    private void fastRegister(SendWr wr) {
        MemoryRegion mr = wr.fastRegRegion();
        SoftRegion r = pd.device.table().lookup(mr.stag());
        if (r == null || r.kind() != SoftRegion.Kind.FAST_REG || r.pdId() != pd.id
                || wr.fastRegMemory().length() > mr.maxFastRegLength()) {
            throw new LocalOperationException(Status.LOCAL_PROTECTION_ERROR, "not a fast-reg region of this PD");
        }
        Memory m = wr.fastRegMemory();
        r.map(m.view(), 0, m.length(), wr.isFastRegZeroBased() ? 0 : wr.fastRegBase(), wr.fastRegAccess(),
                wr.fastRegKey(), null);
        ((SoftMr) r.attachment()).remap(m);
    }

    /**
     * BIND_MW (RFC 5040 section 2 memory windows): the window names [off, off+len) of a region with
     * MW_BIND in this PD, with the window's remote rights and new key; its TOs are the region's.
     */
    private void bind(SendWr wr, SoftRegion parent, int off, long len) {
        SoftRegion w = pd.device.table().lookup(wr.bindWindow().stag());
        if (w == null || w.kind() != SoftRegion.Kind.WINDOW || parent == null || !parent.valid()
                || parent.pdId() != pd.id || w.pdId() != pd.id
                || !io.jrnic.soft.mem.AccessFlags.has(parent.access(), io.jrnic.soft.mem.AccessFlags.MW_BIND)) {
            throw new LocalOperationException(Status.MW_BIND_ERROR, "window, region or rights do not allow the bind");
        }
        w.map(parent.memory(), parent.memoryOffset() + off, len, parent.baseTaggedOffset() + off, wr.bindAccess(),
                wr.bindKey(), parent);
    }

    /** LOCAL_INVALIDATE: the STag of this PD stops working. */
    private void localInvalidate(int stag) {
        SoftRegion r = pd.device.table().lookup(stag);
        if (r == null || !r.valid() || r.pdId() != pd.id) {
            throw new LocalOperationException(Status.LOCAL_PROTECTION_ERROR, "STag cannot be invalidated");
        }
        r.invalidate();
    }

    @Override
    public void modify(QpTrigger consumerTrigger) {
        switch (consumerTrigger) {
            case MODIFY_TO_ERROR -> engine.abort();
            case RESET_TO_IDLE -> engine.reset();
            default -> throw new IllegalArgumentException("not a consumer trigger: " + consumerTrigger);
        }
    }

    @Override
    public void close() {
        if (engine.state() != io.jrnic.verbs.QpState.IDLE && engine.state() != io.jrnic.verbs.QpState.ERROR) {
            engine.abort();
        }
        engine.inbox().closeInputWaiter();
        pd.device.counters().retire(engine.counters());
    }

    // ---------------------------------------------------------------- engine reports

    @Override
    public void transition(QpTrigger trigger, Terminate t, boolean received) {
        if (t != null && received) {
            engine.counters().terminate(t.layer(), t.errorType(), t.errorCode(), true);
        }
        try {
            up.transition(trigger, info(t, received));
        } catch (IllegalQpTransitionException e) {
            // both layers run the one table (QpStateMachine); they differ only while the consumer's modify to ERROR,
            // applied here at once, is on its way to the engine's loop behind this report: ERROR stands
            if (up.state() != io.jrnic.verbs.QpState.ERROR) {
                throw e;
            }
        }
    }

    @Override
    public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
        Completion c = completion.clear().status(EngineEnums.status(status)).byteLength(byteLength);
        c.terminate(info(t, received));
        count(e.opcode, status);
        return up.sendDone((SendWr) e.token, c);
    }

    @Override
    public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
        if (status == Status.WR_FLUSH_ERROR) {
            engine.counters().inc(Counter.FLUSHED_WRS);
        }
        Completion c = completion.clear().status(EngineEnums.status(status))
                .byteLength(info.byteLength)
                .opcode(info.immediate ? CompletionOpcode.RECV_IMMEDIATE : CompletionOpcode.RECV)
                .solicited(info.solicited);
        if (info.immediate) {
            c.immediateData(info.immediateData);
        }
        if (info.invalidated) {
            c.invalidatedStag(info.invalidatedStag);
        }
        c.terminate(info(info.terminate, info.terminateReceived));
        return up.recvDone((RecvWr) e.token, c);
    }

    /** Messages sent by opcode (counted as their WR retires successfully) and flushed WRs. */
    private void count(SqOpcode op, Status status) {
        QpCounters c = engine.counters();
        if (status == Status.WR_FLUSH_ERROR) {
            c.inc(Counter.FLUSHED_WRS);
        } else if (status == Status.SUCCESS) {
            switch (op) {
                case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA ->
                        c.inc(Counter.TX_SEND);
                case RDMA_WRITE, RDMA_WRITE_WITH_IMMEDIATE -> c.inc(Counter.TX_WRITE);
                case RDMA_READ -> c.inc(Counter.TX_READ);
                case ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> c.inc(Counter.TX_ATOMIC);
                default -> {
                }
            }
        }
    }

    /** A Terminate sent is always in the RFC layout; one received in the layout the engine read it. */
    private TerminateInfo info(Terminate t, boolean received) {
        return t == null ? null : new TerminateInfo(t.layer(), t.errorType(), t.errorCode(), received,
                received ? EngineEnums.terminateLayout(engine.receivedTerminateLayout())
                        : io.jrnic.verbs.TerminateLayout.RFC);
    }
}
