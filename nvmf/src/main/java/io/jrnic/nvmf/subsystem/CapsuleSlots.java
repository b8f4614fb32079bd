package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Sgl;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The HSQSIZE + 1 slots of one {@link TargetQueue} and the work requests that move them (NVMe over Fabrics 1.1,
 * RDMA binding): slot {@code i} is receive {@code i} of one command capsule (64 octets + the in-capsule data), one
 * response capsule buffer and one data buffer. A command received into receive {@code i} is served with buffers
 * {@code i}: its data comes from the capsule or by RDMA READ ({@link #fromHost}), goes by RDMA WRITE
 * ({@link #toHostFromSlot}), and its response capsule carries SQHD ({@link #respond}); receive {@code i} is posted
 * again just before the response goes out, so a host that keeps within its SQ size always finds one posted. Send
 * WRs beyond the send queue's room are kept in order until a completion makes room. Poller thread only (except the
 * constructor and {@link #postReceives}).
 */
final class CapsuleSlots {
    private static final long RDMA_READ_TAG = 1L << 32;
    private final TargetQueue queue;
    private final QueuePair qp;
    private final ProtectionDomain pd;
    private final int qid;
    private final int depth;
    private final int capsuleSize;
    private final int maxTransfer;
    /** Send WRs kept while the send queue is full, in posting order. */
    private final ArrayDeque<SendWr> backlog = new ArrayDeque<>();
    private final ByteBuffer recvBuf;
    private final MemoryRegion recvMr;
    private final ByteBuffer rspBuf;
    private final MemoryRegion rspMr;
    private final ByteBuffer[] data;
    private final MemoryRegion[] dataMr;
    private final int[] readLength;
    private final Consumer<ByteBuffer>[] readPending;
    private int sqhd;
    private boolean sqFlowDisabled;

    /** Registers the capsule and response buffers in {@code pd} (the caller closes it on failure); posts nothing. */
    @SuppressWarnings("unchecked")
    CapsuleSlots(TargetQueue queue, QueuePair qp, ProtectionDomain pd, int qid, int depth, int capsuleSize,
            int maxTransfer) {
        this.queue = queue;
        this.qp = qp;
        this.pd = pd;
        this.qid = qid;
        this.depth = depth;
        this.capsuleSize = capsuleSize;
        this.maxTransfer = maxTransfer;
        recvBuf = ByteBuffer.allocateDirect(depth * capsuleSize);
        recvMr = pd.register(recvBuf, Access.LOCAL_WRITE);
        rspBuf = ByteBuffer.allocateDirect(depth * Cqe.SIZE);
        rspMr = pd.register(rspBuf, Access.LOCAL_WRITE);
        data = new ByteBuffer[depth];
        dataMr = new MemoryRegion[depth];
        readPending = new Consumer[depth];
        readLength = new int[depth];
    }

    /** Send WRs for {@code depth} slots: a data transfer and a response per command, and a few to spare. */
    static int sendQueueCapacity(int depth) {
        return 2 * depth + 4;
    }

    /** Posts every slot's receive. */
    void postReceives() {
        for (int i = 0; i < depth; i++) {
            postRecv(i);
        }
    }

    private void postRecv(int i) {
        qp.postRecv(RecvWr.of(i, recvMr.sge(i * capsuleSize, capsuleSize)));
    }

    /** The SQE of the capsule received into slot {@code i}; the SQ head advances past it. */
    Sqe command(int i) {
        Sqe sqe = Sqe.decode(recvBuf, i * capsuleSize);
        sqhd = (sqhd + 1) % depth;
        return sqe;
    }

    /** Connect's CATTR asked for SQ flow control disabled: responses carry SQHD 0xFFFF. */
    void sqFlowDisabled(boolean disabled) {
        sqFlowDisabled = disabled;
    }

    /**
     * Posts {@code wr}, or keeps it (and every later one, in order) while the QP's send queue is full: the host
     * may send its next command as soon as it has a response, before this side retired the work requests of the
     * last one (a zero-copy RDMA WRITE retires once its bytes left the socket's buffer). Responses are signaled, so
     * each one's completion posts what was kept.
     */
    private void postOrKeep(SendWr wr) {
        if (backlog.isEmpty() && qp.sendQueueDepth() < sendQueueCapacity(depth)) {
            qp.postSend(wr);
        } else {
            backlog.add(wr);
        }
    }

    /** A response's completion retired it and the work before it: posts what was kept, in order, while it fits. */
    void postKept() {
        while (!backlog.isEmpty() && qp.sendQueueDepth() < sendQueueCapacity(depth)) {
            qp.postSend(backlog.poll());
        }
    }

    /** An RDMA READ of {@link #fromHost} completed: its slot's data goes to the command. */
    void readCompleted(long wrId) {
        int i = (int) (wrId & 0xFFFF);
        Consumer<ByteBuffer> then = readPending[i];
        readPending[i] = null;
        if (then != null) {
            then.accept(data(i, readLength[i]));
        }
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
        if (queue.isClosing()) {
            return;
        }
        try {
            postRecv(i);
            new Cqe(dw0, dw1, sqFlowDisabled ? 0xFFFF : sqhd, qid, sqe.cid(), status).encode(rspBuf, i * Cqe.SIZE);
            Sgl sgl = sqe.sgl();
            SendWr send = sgl.invalidatesKey() ? SendWr.sendWithInvalidate(sgl.key()) : SendWr.send();
            postOrKeep(send.id(i).local(rspMr.sge(i * Cqe.SIZE, Cqe.SIZE)).signaled());
        } catch (RuntimeException e) {
            queue.misbehaved("posting the response failed: " + e);
        }
    }

    private void post(SendWr wr) {
        try {
            postOrKeep(wr);
        } catch (RuntimeException e) {
            queue.misbehaved("posting " + wr.opcode() + " failed: " + e);
        }
    }
}
