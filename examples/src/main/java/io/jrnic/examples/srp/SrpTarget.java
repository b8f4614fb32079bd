package io.jrnic.examples.srp;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpStateException;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * SRP-style target over jrnic: accepts logins (request limit and max transfer negotiated in MPA
 * private data), and per command moves the data by RDMA between the initiator's advertised buffer
 * and a bounce buffer, and the bounce buffer and the {@link BlockDevice}: a READ is device read,
 * RDMA WRITE, response; a WRITE is RDMA READ, device write, response. Every response is a Send with
 * Invalidate of the command's STag. One receive (and one bounce buffer) per granted request: a
 * receive is posted again before its response goes out, which returns the credit (delta 1).
 */
public final class SrpTarget implements AutoCloseable {
    private final RdmaDevice dev;
    private final BlockDevice device;
    private final int requestLimit;
    private final int maxTransfer;
    private final Listener listener;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();

    private SrpTarget(RdmaDevice dev, InetSocketAddress bind, BlockDevice device, int requestLimit, int maxTransfer) {
        this.dev = dev;
        this.device = device;
        this.requestLimit = requestLimit;
        this.maxTransfer = maxTransfer;
        listener = dev.connectionManager().listen(bind, ConnectOptions.defaults());
        listener.onConnectRequest(this::login);
    }

    /** Listens on {@code bind}, granting at most {@code requestLimit} requests of {@code maxTransfer} bytes. */
    public static SrpTarget start(RdmaDevice dev, InetSocketAddress bind, BlockDevice device, int requestLimit,
            int maxTransfer) {
        return new SrpTarget(dev, bind, device, requestLimit, maxTransfer);
    }

    public InetSocketAddress address() {
        return listener.localAddress();
    }

    /**
     * Diagnostics (used by the tests to prove invalidation): an RDMA WRITE of {@code length} bytes
     * of zeros to {@code (stag, to)} on the first session's QP, outside any command.
     */
    void probeWrite(int stag, long to, int length) {
        Session s = sessions.get(0);
        s.qp.postSend(SendWr.rdmaWrite().id(Long.MAX_VALUE).local(s.bounceMr.sge(0, length)).remote(stag, to));
    }

    private void login(ConnectRequest req) {
        SrpWire.Login asked;
        try {
            asked = SrpWire.Login.decode(req.privateData());
        } catch (IllegalArgumentException e) {
            req.reject(e.getMessage().getBytes(StandardCharsets.US_ASCII));
            return;
        }
        int limit = Math.max(1, Math.min(asked.requestLimit(), requestLimit));
        int transfer = Math.min(asked.maxTransfer(), maxTransfer);
        if (transfer < SrpWire.BLOCK) {
            req.reject("max transfer below one block".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        Session s = new Session(limit, transfer);
        sessions.add(s);
        req.accept(s.qp, AcceptOptions.defaults()
                .privateData(new SrpWire.LoginAccept(limit, transfer, device.blocks()).encode()))
                .whenComplete((c, e) -> {
                    if (e != null) {
                        sessions.remove(s);
                        s.close();
                    }
                });
    }

    /** One logged-in initiator: its QP, receives, bounce buffers and CQ thread. */
    private final class Session implements AutoCloseable {
        private static final long RDMA_READ = 1L << 32;
        private final int limit;
        private final int transfer;
        private final ProtectionDomain pd;
        private final CompletionQueue cq;
        final QueuePair qp;
        private final ByteBuffer cmdBuf;
        private final MemoryRegion cmdMr;
        private final ByteBuffer rspBuf;
        private final MemoryRegion rspMr;
        private final ByteBuffer bounce;
        private final MemoryRegion bounceMr;
        private final SrpWire.Command[] pending;
        private final CqPoller poller;

        Session(int limit, int transfer) {
            this.limit = limit;
            this.transfer = transfer;
            pd = dev.allocatePd();
            cq = dev.createCq(8 * limit + 16);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(2 * limit + 2).maxRecvWr(limit));
            cmdBuf = ByteBuffer.allocateDirect(limit * SrpWire.CMD);
            cmdMr = pd.register(cmdBuf, Access.LOCAL_WRITE);
            rspBuf = ByteBuffer.allocateDirect(limit * SrpWire.RSP);
            rspMr = pd.register(rspBuf, Access.LOCAL_WRITE);
            bounce = ByteBuffer.allocateDirect(limit * transfer);
            bounceMr = pd.register(bounce, Access.LOCAL_WRITE);
            pending = new SrpWire.Command[limit];
            for (int i = 0; i < limit; i++) {
                postRecv(i);
            }
            poller = new CqPoller("srp-target-cq", cq, this::onCompletion);
        }

        private void postRecv(int i) {
            qp.postRecv(RecvWr.of(i, cmdMr.sge(i * SrpWire.CMD, SrpWire.CMD)));
        }

        private ByteBuffer bounce(int i, int length) {
            return bounce.duplicate().position(i * transfer).limit(i * transfer + length).slice();
        }

        private void onCompletion(Completion c) {
            try {
                handle(c);
            } catch (QpStateException leftRts) {
                // the initiator terminated or went between the completion and a post: the QP refuses new work and
                // flushes what it holds; the session stays until the target closes
            }
        }

        private void handle(Completion c) {
            if (c.opcode() == CompletionOpcode.RECV) {
                if (c.isOk()) {
                    command((int) c.id(), c.byteLength());
                }
            } else if (c.opcode() == CompletionOpcode.RDMA_READ) {
                int i = (int) (c.id() & 0xFFFF);
                SrpWire.Command cmd = pending[i];
                pending[i] = null;
                respond(i, cmd, c.isOk() ? writeDevice(i, cmd) : SrpWire.TRANSFER_ERROR);
            }
            // Sends and RDMA WRITEs: a failure moves the QP to ERROR; the initiator sees it.
        }

        private void command(int i, int length) {
            SrpWire.Command cmd = length == SrpWire.CMD ? SrpWire.Command.read(cmdBuf, i * SrpWire.CMD) : null;
            if (cmd == null) {
                postRecv(i); // not a command: dropped (no tag to answer)
                return;
            }
            byte status = cmd.check(device.blocks(), transfer);
            if (status != SrpWire.GOOD) {
                respond(i, cmd, status);
            } else if (cmd.op() == SrpWire.Op.READ) {
                try {
                    device.read(cmd.lba(), bounce(i, cmd.length()));
                } catch (IOException e) {
                    respond(i, cmd, SrpWire.IO_ERROR);
                    return;
                }
                // RDMA WRITE then the response: Sends are ordered after the WRITE's placement (RFC 5040 5.5).
                qp.postSend(SendWr.rdmaWrite().id(i).local(bounceMr.sge(i * transfer, cmd.length()))
                        .remote(cmd.stag(), cmd.to()));
                respond(i, cmd, SrpWire.GOOD);
            } else {
                pending[i] = cmd;
                qp.postSend(SendWr.rdmaRead().id(RDMA_READ | i).local(bounceMr.sge(i * transfer, cmd.length()))
                        .remote(cmd.stag(), cmd.to()).signaled());
            }
        }

        private byte writeDevice(int i, SrpWire.Command cmd) {
            try {
                device.write(cmd.lba(), bounce(i, cmd.length()));
                return SrpWire.GOOD;
            } catch (IOException e) {
                return SrpWire.IO_ERROR;
            }
        }

        /** Reposts receive {@code i} (the credit) and answers with a Send with Invalidate of the command's STag. */
        private void respond(int i, SrpWire.Command cmd, byte status) {
            postRecv(i);
            SrpWire.putResponse(rspBuf.duplicate().position(i * SrpWire.RSP), status, cmd.tag(), 1);
            qp.postSend(SendWr.sendWithInvalidate(cmd.stag()).id(i).local(rspMr.sge(i * SrpWire.RSP, SrpWire.RSP)));
        }

        @Override
        public void close() {
            poller.close();
            pd.close();
            cq.close();
        }
    }

    @Override
    public void close() {
        listener.close();
        for (Session s : sessions) {
            s.close();
        }
    }
}
