package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.wire.CmPrivateData;
import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sgl;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * One NVMe queue on one RDMA connection (NVMe over Fabrics 1.1 with the RDMA binding): HSQSIZE + 1
 * receives of one command capsule each (64 octets + the in-capsule data), one response buffer and
 * one data buffer per receive. A command received into receive {@code i} is served with buffers
 * {@code i}; receive {@code i} is posted again just before the response goes out, so a host that
 * keeps within its SQ size always finds one posted. Poller thread only (except the constructor).
 */
final class TargetQueue {
    private static final long RDMA_READ_TAG = 1L << 32;
    private final NvmfTarget target;
    private final int qid;
    private final int hsqsize;
    private final int depth;
    private final int capsuleSize;
    private final int maxTransfer;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    /** Send WRs kept while the send queue is full, in posting order (the poller thread's alone). */
    private final java.util.ArrayDeque<SendWr> backlog = new java.util.ArrayDeque<>();
    private final QueuePair qp;
    private final ByteBuffer recvBuf;
    private final MemoryRegion recvMr;
    private final ByteBuffer rspBuf;
    private final MemoryRegion rspMr;
    private final ByteBuffer[] data;
    private final MemoryRegion[] dataMr;
    private final int[] readLength;
    @SuppressWarnings("unchecked")
    private final Consumer<ByteBuffer>[] readPending;
    private volatile Connection connection;
    private InetSocketAddress remote;
    private Controller controller;
    private int sqhd;
    private boolean sqFlowDisabled;
    private boolean closing;
    private boolean released;
    private final long created = System.nanoTime();

    @SuppressWarnings("unchecked")
    TargetQueue(NvmfTarget target, int qid, int hsqsize, int hrqsize) {
        this.target = target;
        this.qid = qid;
        this.hsqsize = hsqsize;
        this.depth = hsqsize + 1;
        NvmfTarget.Config cfg = target.config();
        capsuleSize = Sqe.SIZE + cfg.inCapsuleData();
        maxTransfer = cfg.maxTransfer();
        pd = target.device().allocatePd();
        try {
            cq = target.device().createCq(4 * depth + 16);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(sqCapacity()).maxRecvWr(depth));
            recvBuf = ByteBuffer.allocateDirect(depth * capsuleSize);
            recvMr = pd.register(recvBuf, Access.LOCAL_WRITE);
            rspBuf = ByteBuffer.allocateDirect(depth * Cqe.SIZE);
            rspMr = pd.register(rspBuf, Access.LOCAL_WRITE);
        } catch (RuntimeException e) {
            pd.close();
            throw e;
        }
        data = new ByteBuffer[depth];
        dataMr = new MemoryRegion[depth];
        readPending = new Consumer[depth];
        readLength = new int[depth];
        for (int i = 0; i < depth; i++) {
            postRecv(i);
        }
    }

    int qid() {
        return qid;
    }

    InetSocketAddress remote() {
        return remote;
    }

    /** Accepts with the binding's RDMA_CM_ACCEPT private data (CRQSIZE = the receives posted). */
    void accept(ConnectRequest req) {
        remote = req.remoteAddress();
        target.poller.add(cq, this::onCompletion);
        byte[] pd = new CmPrivateData.Accept(CmPrivateData.RECFMT_1_0, depth).encode();
        try {
            req.accept(qp, AcceptOptions.defaults().privateData(pd)).whenComplete((c, e) -> {
                if (e != null) {
                    target.poller.execute(() -> teardown("accept failed: " + e));
                    return;
                }
                connection = c;
                c.disconnected().thenRun(() -> target.poller.execute(() -> {
                    teardown("connection closed by the host or the transport");
                    release();
                }));
            });
        } catch (RuntimeException e) {
            target.poller.execute(() -> teardown("accept failed: " + e));
        }
    }

    private void postRecv(int i) {
        qp.postRecv(RecvWr.of(i, recvMr.sge(i * capsuleSize, capsuleSize)));
    }

    /** Send WRs this queue's QP holds: a data transfer and a response per command, and a few to spare. */
    private int sqCapacity() {
        return 2 * depth + 4;
    }

    /**
     * Posts {@code wr}, or keeps it (and every later one, in order) while the QP's send queue is full: the host
     * may send its next command as soon as it has a response, before this side retired the work requests of the
     * last one (a zero-copy RDMA WRITE retires once its bytes left the socket's buffer). Responses are signaled, so
     * each one's completion posts what was kept.
     */
    private void postOrKeep(SendWr wr) {
        if (backlog.isEmpty() && qp.sendQueueDepth() < sqCapacity()) {
            qp.postSend(wr);
        } else {
            backlog.add(wr);
        }
    }

    /** A response's completion retired it and the work before it: posts what was kept, in order, while it fits. */
    private void postKept() {
        while (!backlog.isEmpty() && qp.sendQueueDepth() < sqCapacity()) {
            qp.postSend(backlog.poll());
        }
    }

    private void onCompletion(Completion c) {
        if (closing) {
            return; // flushed work after the teardown started
        }
        if (c.status() == io.jrnic.verbs.CompletionStatus.WR_FLUSH_ERROR) {
            // the connection went down (the host disconnected): its end, not a misbehaviour
            if (controller != null && qid == 0) {
                controller.teardown("admin queue closed by the host");
            } else {
                teardown("connection closed");
            }
            return;
        }
        if (!c.isOk()) {
            misbehaved("work completion " + c.opcode() + " " + c.status());
            return;
        }
        try {
            if (!c.opcode().isReceive()) {
                postKept(); // a response or a Read retired: room in the send queue
            }
            if (c.opcode() == CompletionOpcode.RECV) {
                command((int) c.id(), c.byteLength());
            } else if (c.opcode() == CompletionOpcode.RDMA_READ) {
                int i = (int) (c.id() & 0xFFFF);
                Consumer<ByteBuffer> then = readPending[i];
                readPending[i] = null;
                if (then != null) {
                    then.accept(data(i, readLength[i]));
                }
            }
        } catch (RuntimeException e) {
            // a bug of ours: the command would stay unanswered, so the association goes (and the poller counts it)
            misbehaved("internal error: " + e);
            throw e;
        }
    }

    /** A capsule arrived in receive {@code i}. */
    private void command(int i, int length) {
        if (length < Sqe.SIZE) {
            misbehaved("command capsule of " + length + " octets (a capsule starts with a 64-octet SQE)");
            return;
        }
        Sqe sqe = Sqe.decode(recvBuf, i * capsuleSize);
        sqhd = (sqhd + 1) % depth;
        if (controller != null) {
            controller.keepAlive(); // traffic counts as keep-alive (TBKAS behaviour)
        }
        int inCapsule = length - Sqe.SIZE;
        if (sqe.opcode() == Opcodes.FABRICS) {
            fabrics(i, sqe, inCapsule);
        } else if (controller == null) {
            respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0); // nothing but Connect before Connect
        } else if (qid == 0) {
            if (!controller.isReady()) {
                respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
            } else {
                AdminCommands.handle(this, controller, i, sqe);
            }
        } else {
            IoCommands.handle(this, controller, i, sqe, inCapsule);
        }
    }

    private void fabrics(int i, Sqe sqe, int inCapsule) {
        switch (sqe.fctype()) {
            case Opcodes.FCTYPE_CONNECT -> {
                if (controller != null) {
                    respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
                } else {
                    fromHost(i, sqe, inCapsule, Fabrics.ConnectData.SIZE, d -> connect(i, sqe, d));
                }
            }
            case Opcodes.FCTYPE_PROPERTY_GET, Opcodes.FCTYPE_PROPERTY_SET -> {
                if (controller == null) {
                    respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
                } else if (qid != 0) {
                    respond(i, sqe, Status.INVALID_FIELD, 0); // properties are an admin queue matter
                } else {
                    AdminCommands.property(this, controller, i, sqe);
                }
            }
            case Opcodes.FCTYPE_DISCONNECT -> {
                respond(i, sqe, Status.SUCCESS, 0);
                if (qid == 0 && controller != null) {
                    controller.teardown("Disconnect on the admin queue");
                } else {
                    teardown("Disconnect");
                }
            }
            default -> respond(i, sqe, Status.INVALID_FIELD, 0);
        }
    }

    /** Fabrics Connect (section 3.3): checks the command and its data, then binds this queue to a controller. */
    private void connect(int i, Sqe sqe, ByteBuffer raw) {
        Fabrics.ConnectData d = Fabrics.ConnectData.decode(raw, raw.position());
        NvmfTarget.Config cfg = target.config();
        if (Fabrics.connectRecfmt(sqe) != 0) {
            respond(i, sqe, Status.CONNECT_INCOMPATIBLE_FORMAT | Status.DNR, 0);
        } else if (Fabrics.connectQid(sqe) != qid) {
            respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(false, 42));
        } else if (Fabrics.connectSqsize(sqe) != hsqsize) {
            respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(false, 44));
        } else if (!cfg.subsystemNqn().equals(d.subnqn())) {
            respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 256));
        } else if (d.hostnqn().isEmpty()) {
            respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 512));
        } else if (qid == 0) {
            if (d.cntlid() != Fabrics.CNTLID_DYNAMIC) {
                respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 16));
                return;
            }
            Controller c = target.newController(this, d, Fabrics.connectKato(sqe));
            if (c == null) {
                respond(i, sqe, Status.CONNECT_CONTROLLER_BUSY, 0);
                return;
            }
            bind(c, sqe);
            respond(i, sqe, Status.SUCCESS, c.cntlid());
        } else {
            Controller c = target.controller(d.cntlid());
            if (c == null || c.isGone() || !c.hostnqn().equals(d.hostnqn())) {
                respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 16));
            } else if (!c.isReady()) {
                respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
            } else if (qid > c.queuesAllocated() + 1 || !c.addIoQueue(this)) {
                respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(false, 42));
            } else {
                bind(c, sqe);
                respond(i, sqe, Status.SUCCESS, c.cntlid());
            }
        }
    }

    private void bind(Controller c, Sqe sqe) {
        controller = c;
        sqFlowDisabled = (Fabrics.connectCattr(sqe) & Fabrics.CATTR_DISABLE_SQ_FLOW) != 0;
    }

    /** Connect response DW0 for Invalid Parameters: IPO (15:0), IATTR (bit 16: 1 = in the data). */
    private static int invalidParameter(boolean inData, int offset) {
        return (inData ? 1 << 16 : 0) | offset;
    }

    /** The slot's data buffer (registered on first use), cleared to {@code length}. */
    ByteBuffer data(int i, int length) {
        if (data[i] == null) {
            data[i] = ByteBuffer.allocateDirect(maxTransfer);
            dataMr[i] = pd.register(data[i], Access.LOCAL_WRITE);
        }
        return data[i].duplicate().position(0).limit(length).slice();
    }

    int maxTransfer() {
        return maxTransfer;
    }

    /**
     * Host-to-controller data of {@code length} octets: from the capsule (SGL Data Block, sub type
     * Offset) or by an RDMA READ of the host's keyed block. Answers the command with an SGL status
     * when the descriptor does not fit.
     */
    void fromHost(int i, Sqe sqe, int inCapsule, int length, Consumer<ByteBuffer> then) {
        Sgl sgl = sqe.sgl();
        if (sgl.isInCapsule()) {
            if (sgl.length() != length) {
                respond(i, sqe, Status.DATA_SGL_LENGTH_INVALID | Status.DNR, 0);
            } else if (sgl.address() < 0 || sgl.address() + length > inCapsule) {
                respond(i, sqe, Status.SGL_OFFSET_INVALID | Status.DNR, 0);
            } else {
                int at = i * capsuleSize + Sqe.SIZE + (int) sgl.address();
                then.accept(recvBuf.duplicate().position(at).limit(at + length).slice());
            }
        } else if (sgl.isKeyed() && (sgl.subtype() == Sgl.SUBTYPE_ADDRESS || sgl.invalidatesKey())) {
            if (sgl.length() < length) {
                respond(i, sqe, Status.DATA_SGL_LENGTH_INVALID | Status.DNR, 0);
                return;
            }
            data(i, length);
            readPending[i] = then;
            readLength[i] = length;
            post(SendWr.rdmaRead().id(RDMA_READ_TAG | i).local(dataMr[i].sge(0, length))
                    .remote(sgl.key(), sgl.address()).signaled());
        } else {
            respond(i, sqe, Status.SGL_DESCRIPTOR_TYPE_INVALID | Status.DNR, 0);
        }
    }

    /** Controller-to-host data: {@code src} is written into the slot's buffer, then sent by {@link #toHostFromSlot}. */
    void toHost(int i, Sqe sqe, ByteBuffer src, int dw0) {
        int length = src.remaining();
        data(i, length).put(src.duplicate());
        toHostFromSlot(i, sqe, length, dw0);
    }

    /** RDMA WRITE of the first {@code length} octets of the slot's buffer into the host's keyed block, then the response. */
    void toHostFromSlot(int i, Sqe sqe, int length, int dw0) {
        Sgl sgl = sqe.sgl();
        if (!sgl.isKeyed() || !(sgl.subtype() == Sgl.SUBTYPE_ADDRESS || sgl.invalidatesKey())) {
            respond(i, sqe, Status.SGL_DESCRIPTOR_TYPE_INVALID | Status.DNR, 0);
        } else if (sgl.length() < length) {
            respond(i, sqe, Status.DATA_SGL_LENGTH_INVALID | Status.DNR, 0);
        } else {
            data(i, length);
            // The RDMA WRITE is placed before the Send that follows it (RFC 5040 section 5.5).
            post(SendWr.rdmaWrite().id(i).local(dataMr[i].sge(0, length)).remote(sgl.key(), sgl.address()));
            respond(i, sqe, Status.SUCCESS, dw0);
        }
    }

    /** Keeps the command (an AER) without answering: its receive goes back at once. */
    void hold(int i) {
        postRecv(i);
    }

    void respond(int i, Sqe sqe, int status, int dw0) {
        respond(i, sqe, status, dw0, 0);
    }

    /**
     * Posts receive {@code i} again, then the response capsule: a Send, or a Send with Invalidate of
     * the host's key when its keyed SGL asked for invalidation (RDMA binding, "Invalidate Key").
     */
    void respond(int i, Sqe sqe, int status, int dw0, int dw1) {
        if (closing) {
            return;
        }
        try {
            postRecv(i);
            new Cqe(dw0, dw1, sqFlowDisabled ? 0xFFFF : sqhd, qid, sqe.cid(), status).encode(rspBuf, i * Cqe.SIZE);
            Sgl sgl = sqe.sgl();
            SendWr send = sgl.invalidatesKey() ? SendWr.sendWithInvalidate(sgl.key()) : SendWr.send();
            postOrKeep(send.id(i).local(rspMr.sge(i * Cqe.SIZE, Cqe.SIZE)).signaled());
        } catch (RuntimeException e) {
            misbehaved("posting the response failed: " + e);
        }
    }

    private void post(SendWr wr) {
        try {
            postOrKeep(wr);
        } catch (RuntimeException e) {
            misbehaved("posting " + wr.opcode() + " failed: " + e);
        }
    }

    /** The host broke the wire protocol or the transport failed: the whole association goes. */
    void misbehaved(String why) {
        if (closing) {
            return;
        }
        String reason = "queue " + qid + " from " + remote + ": " + why;
        if (controller != null) {
            controller.teardown(reason);
        } else {
            target.event("queue torn down: " + reason);
            teardown(reason);
        }
    }

    /** A connection that has not sent its Fabrics Connect within {@code limitNanos} is closed. */
    void checkConnected(long now, long limitNanos) {
        if (controller == null && !closing && now - created > limitNanos) {
            target.event("queue torn down: queue " + qid + " from " + remote + ": no Connect within "
                    + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(limitNanos) + " ms");
            teardown("no Connect");
        }
    }

    /** Closes this queue's connection (once); resources go when it is down. */
    void teardown(String why) {
        if (closing) {
            return;
        }
        closing = true;
        if (controller != null) {
            controller.queueGone(this);
        }
        Connection c = connection;
        if (c != null) {
            c.close();
        } else {
            release();
        }
    }

    /** Frees the QP, CQ and memory (poller thread, or after it stopped). */
    void release() {
        if (released) {
            return;
        }
        released = true;
        closing = true;
        target.poller.remove(cq);
        target.removed(this);
        pd.close();
        cq.close();
    }
}
