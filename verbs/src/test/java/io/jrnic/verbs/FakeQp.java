package io.jrnic.verbs;

import io.jrnic.verbs.FakeProvider.FakeDevice;
import io.jrnic.verbs.FakeProvider.FakeMr;
import io.jrnic.verbs.FakeProvider.FakePd;
import io.jrnic.verbs.FakeProvider.FakeSrq;
import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
import io.jrnic.verbs.spi.QpUpcalls;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * TEST DOUBLE. {@link FakeProvider}'s queue pair: executes SEND, RDMA WRITE and RDMA READ synchronously against the
 * QP it is connected to ({@link #peer}), with the remote access checks in the reference order, and records the
 * consumer's modifies. Executes work in postSend when {@link #autoExecute} is on; otherwise holds it.
 */
final class FakeQp implements QpSpi {
    final FakeDevice dev;
    final FakePd pd;
    final QpSpec spec;
    final QpUpcalls up;
    final ArrayDeque<SendWr> held = new ArrayDeque<>();
    final ArrayDeque<RecvWr> rq = new ArrayDeque<>();
    final List<QpTrigger> modifies = new ArrayList<>();
    volatile boolean autoExecute = true;
    volatile FakeQp peer;
    volatile FakeCm.FakeConnection conn;
    /** Calls of {@link #progress()} (a CQ let this QP read its stream on the polling thread). */
    final java.util.concurrent.atomic.AtomicInteger progressCalls = new java.util.concurrent.atomic.AtomicInteger();
    /** What {@link #inputWaiter()} offers (null: none, as a provider without one). */
    volatile io.jrnic.verbs.spi.InputWaiter waiter;

    FakeQp(FakeDevice dev, FakePd pd, QpSpec spec, QpUpcalls up) {
        this.dev = dev;
        this.pd = pd;
        this.spec = spec;
        this.up = up;
    }

    @Override
    public void postSend(SendWr[] wrs, int offset, int count) {
        for (int i = 0; i < count; i++) {
            held.addLast(wrs[offset + i]);
        }
        if (autoExecute) {
            executeAll();
        }
    }

    @Override
    public synchronized void postRecv(RecvWr[] wrs, int offset, int count) {
        for (int i = 0; i < count; i++) {
            rq.addLast(wrs[offset + i]);
        }
    }

    @Override
    public boolean progress() {
        progressCalls.incrementAndGet();
        return false;
    }

    @Override
    public io.jrnic.verbs.spi.InputWaiter inputWaiter() {
        return waiter;
    }

    synchronized RecvWr takeRecv() {
        if (spec.srq() != null) {
            return ((FakeSrq) spec.srq()).take();
        }
        return rq.pollFirst();
    }

    /** Executes every held send WR in order. */
    void executeAll() {
        SendWr wr;
        while (up.state() == QpState.RTS && (wr = held.pollFirst()) != null) {
            execute(wr);
        }
    }

    private void execute(SendWr wr) {
        FakeQp p = peer;
        switch (wr.opcode()) {
            case SEND, SEND_WITH_SE, SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA -> {
                RecvWr r = p.takeRecv();
                if (r == null) {
                    fail(wr, new TerminateInfo(1, 2, 0x02, true));
                    return;
                }
                byte[] data = gather(wr);
                if (data.length > r.totalLength()) {
                    p.up.recvDone(r, new Completion().status(CompletionStatus.LOCAL_LENGTH_ERROR));
                    fail(wr, new TerminateInfo(1, 2, 0x05, true));
                    return;
                }
                scatter(r, data);
                Completion c = new Completion().byteLength(data.length).solicited(wr.isSolicited());
                if (wr.opcode() == WrOpcode.IMMEDIATE_DATA) {
                    c.opcode(CompletionOpcode.RECV_IMMEDIATE).immediateData(wr.immediateData());
                }
                if (wr.opcode().invalidates()) {
                    c.invalidatedStag(wr.invalidateStag());
                }
                p.up.recvDone(r, c);
                up.sendDone(wr);
            }
            case RDMA_WRITE -> {
                FakeMr target = p.check(wr.remoteStag(), wr.remoteTo(), wr.totalLength(), Access.REMOTE_WRITE);
                if (target == null) {
                    fail(wr, new TerminateInfo(1, 1, 0x00, true));
                    return;
                }
                byte[] data = gather(wr);
                target.memory.view().setBytes((int) (wr.remoteTo() - target.base), data);
                up.sendDone(wr);
            }
            case RDMA_READ -> {
                FakeMr src = p.check(wr.remoteStag(), wr.remoteTo(), wr.totalLength(), Access.REMOTE_READ);
                if (src == null) {
                    fail(wr, new TerminateInfo(0, 1, 0x00, true));
                    return;
                }
                byte[] data = new byte[(int) wr.totalLength()];
                src.memory.view().getBytes((int) (wr.remoteTo() - src.base), data);
                int pos = 0;
                for (int i = 0; i < wr.sgeCount(); i++) {
                    wr.sgeRegion(i).memory().view().setBytes(wr.sgeOffset(i), data, pos, wr.sgeLength(i));
                    pos += wr.sgeLength(i);
                }
                up.sendDone(wr);
            }
            default -> up.sendDone(wr);
        }
    }

    /** Remote access check in the reference order: valid STag, key, PD, right, bounds. */
    FakeMr check(int stag, long to, long len, Access right) {
        FakeMr mr = dev.tpt.get(STag.index(stag));
        if (mr == null || !mr.valid || mr.stag != stag || mr.pd != pd || !right.in(mr.access)) {
            return null;
        }
        if (to < mr.base || to + len > mr.base + mr.length()) {
            return null;
        }
        return mr;
    }

    private void fail(SendWr wr, TerminateInfo t) {
        up.sendDone(wr, new Completion().status(t.toStatus()).terminate(t));
        up.transition(QpTrigger.TERMINATE_RECEIVED, t);
        held.clear();
        up.flushAll();
    }

    static byte[] gather(SendWr wr) {
        byte[] out = new byte[(int) wr.totalLength()];
        int pos = 0;
        for (int i = 0; i < wr.sgeCount(); i++) {
            wr.sgeRegion(i).memory().view().getBytes(wr.sgeOffset(i), out, pos, wr.sgeLength(i));
            pos += wr.sgeLength(i);
        }
        return out;
    }

    static void scatter(RecvWr r, byte[] data) {
        int pos = 0;
        for (int i = 0; i < r.sgeCount() && pos < data.length; i++) {
            int n = Math.min(r.sgeLength(i), data.length - pos);
            r.sgeRegion(i).memory().view().setBytes(r.sgeOffset(i), data, pos, n);
            pos += n;
        }
    }

    @Override
    public void modify(QpTrigger consumerTrigger) {
        modifies.add(consumerTrigger);
        if (consumerTrigger == QpTrigger.MODIFY_TO_ERROR) {
            held.clear();
            synchronized (this) {
                rq.clear();
            }
            up.flushAll();
        }
    }

    @Override
    public void close() {
        dev.closed.add("qp");
    }
}
