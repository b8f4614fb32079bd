package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.wire.CmPrivateData;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * One NVMe queue on one RDMA connection (NVMe over Fabrics 1.1 with the RDMA binding): accepts the
 * connection, dispatches each command capsule (Fabrics commands, section 3, here; admin and I/O commands to
 * {@link AdminCommands} and {@link IoCommands}), binds to a controller on Connect (section 3.3) and tears down.
 * Its HSQSIZE + 1 receives, data transfers and responses are its {@link CapsuleSlots}. Poller thread only (except
 * the constructor).
 */
final class TargetQueue {
    private final NvmfTarget target;
    private final int qid;
    private final int hsqsize;
    private final int depth;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final CapsuleSlots slots;
    private volatile Connection connection;
    private InetSocketAddress remote;
    private Controller controller;
    private boolean closing;
    private boolean released;
    private final long created = System.nanoTime();

    TargetQueue(NvmfTarget target, int qid, int hsqsize) {
        this.target = target;
        this.qid = qid;
        this.hsqsize = hsqsize;
        this.depth = hsqsize + 1;
        NvmfTarget.Config cfg = target.config();
        pd = target.device().allocatePd();
        try {
            cq = target.device().createCq(4 * depth + 16);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(CapsuleSlots.sendQueueCapacity(depth)).maxRecvWr(depth));
            slots = new CapsuleSlots(this, qp, pd, qid, depth, Sqe.SIZE + cfg.inCapsuleData(), cfg.maxTransfer());
        } catch (RuntimeException e) {
            pd.close();
            throw e;
        }
        slots.postReceives();
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
                slots.postKept(); // a response or a Read retired: room in the send queue
            }
            if (c.opcode() == CompletionOpcode.RECV) {
                command((int) c.id(), c.byteLength());
            } else if (c.opcode() == CompletionOpcode.RDMA_READ) {
                slots.readCompleted(c.id());
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
        Sqe sqe = slots.command(i);
        if (controller != null) {
            controller.keepAlive(); // traffic counts as keep-alive (TBKAS behaviour)
        }
        int inCapsule = length - Sqe.SIZE;
        if (sqe.opcode() == Opcodes.FABRICS) {
            fabrics(i, sqe, inCapsule);
        } else if (controller == null) {
            slots.respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0); // nothing but Connect before Connect
        } else if (qid == 0) {
            if (!controller.isReady()) {
                slots.respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
            } else {
                AdminCommands.handle(slots, controller, i, sqe);
            }
        } else {
            IoCommands.handle(slots, controller, i, sqe, inCapsule);
        }
    }

    private void fabrics(int i, Sqe sqe, int inCapsule) {
        switch (sqe.fctype()) {
            case Opcodes.FCTYPE_CONNECT -> {
                if (controller != null) {
                    slots.respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
                } else {
                    slots.fromHost(i, sqe, inCapsule, Fabrics.ConnectData.SIZE, d -> connect(i, sqe, d));
                }
            }
            case Opcodes.FCTYPE_PROPERTY_GET, Opcodes.FCTYPE_PROPERTY_SET -> {
                if (controller == null) {
                    slots.respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
                } else if (qid != 0) {
                    slots.respond(i, sqe, Status.INVALID_FIELD, 0); // properties are an admin queue matter
                } else {
                    AdminCommands.property(slots, controller, i, sqe);
                }
            }
            case Opcodes.FCTYPE_DISCONNECT -> {
                slots.respond(i, sqe, Status.SUCCESS, 0);
                if (qid == 0 && controller != null) {
                    controller.teardown("Disconnect on the admin queue");
                } else {
                    teardown("Disconnect");
                }
            }
            default -> slots.respond(i, sqe, Status.INVALID_FIELD, 0);
        }
    }

    /** Fabrics Connect (section 3.3): checks the command and its data, then binds this queue to a controller. */
    private void connect(int i, Sqe sqe, ByteBuffer raw) {
        Fabrics.ConnectData d = Fabrics.ConnectData.decode(raw, raw.position());
        NvmfTarget.Config cfg = target.config();
        if (Fabrics.connectRecfmt(sqe) != 0) {
            slots.respond(i, sqe, Status.CONNECT_INCOMPATIBLE_FORMAT | Status.DNR, 0);
        } else if (Fabrics.connectQid(sqe) != qid) {
            slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(false, 42));
        } else if (Fabrics.connectSqsize(sqe) != hsqsize) {
            slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(false, 44));
        } else if (!cfg.subsystemNqn().equals(d.subnqn())) {
            slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 256));
        } else if (d.hostnqn().isEmpty()) {
            slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 512));
        } else if (qid == 0) {
            if (d.cntlid() != Fabrics.CNTLID_DYNAMIC) {
                slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 16));
                return;
            }
            Controller c = target.newController(this, d, Fabrics.connectKato(sqe));
            if (c == null) {
                slots.respond(i, sqe, Status.CONNECT_CONTROLLER_BUSY, 0);
                return;
            }
            bind(c, sqe);
            slots.respond(i, sqe, Status.SUCCESS, c.cntlid());
        } else {
            Controller c = target.controller(d.cntlid());
            if (c == null || c.isGone() || !c.hostnqn().equals(d.hostnqn())) {
                slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(true, 16));
            } else if (!c.isReady()) {
                slots.respond(i, sqe, Status.COMMAND_SEQUENCE_ERROR, 0);
            } else if (qid > c.queuesAllocated() + 1 || !c.addIoQueue(this)) {
                slots.respond(i, sqe, Status.CONNECT_INVALID_PARAMETERS | Status.DNR, invalidParameter(false, 42));
            } else {
                bind(c, sqe);
                slots.respond(i, sqe, Status.SUCCESS, c.cntlid());
            }
        }
    }

    private void bind(Controller c, Sqe sqe) {
        controller = c;
        slots.sqFlowDisabled((Fabrics.connectCattr(sqe) & Fabrics.CATTR_DISABLE_SQ_FLOW) != 0);
    }

    /** Connect response DW0 for Invalid Parameters: IPO (15:0), IATTR (bit 16: 1 = in the data). */
    private static int invalidParameter(boolean inData, int offset) {
        return (inData ? 1 << 16 : 0) | offset;
    }

    /** Teardown has begun: no more responses go out. */
    boolean isClosing() {
        return closing;
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
