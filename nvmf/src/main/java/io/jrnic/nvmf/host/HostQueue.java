package io.jrnic.nvmf.host;

import io.jrnic.nvmf.Poller;
import io.jrnic.nvmf.wire.CmPrivateData;
import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Sgl;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionFailedException;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The host side of one NVMe queue on one RDMA connection: {@code depth} command slots (the slot is
 * the command identifier), each with a command capsule buffer, a data buffer and a posted receive
 * for a response capsule. Data goes through keyed SGLs of either one region registered for the
 * queue's life ({@link NvmfHost.Registration#POOL}) or a region fast-registered per command and
 * invalidated by the target's Send with Invalidate ({@link NvmfHost.Registration#FAST_REGISTRATION}).
 */
final class HostQueue {
    /** Which way a command's data goes. */
    enum Direction { NONE, TO_CONTROLLER, FROM_CONTROLLER }

    private static final long WAIT_SECONDS = 10;
    final int qid;
    private final int depth;
    private final int capsuleSize;
    private final int slotBytes;
    private final NvmfHost.Registration registration;
    private final Poller poller;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final ByteBuffer cmdBuf;
    private final MemoryRegion cmdMr;
    private final ByteBuffer rspBuf;
    private final MemoryRegion rspMr;
    private final ByteBuffer dataBuf;
    private final MemoryRegion dataMr;
    private final MemoryRegion[] fastReg;
    private final int[] stags;
    private final ArrayBlockingQueue<Integer> free;
    private final AtomicReferenceArray<Pending> pending;
    private Connection connection;
    private int crqsize;
    private volatile String failure;

    private record Pending(CompletableFuture<Cqe> future, Direction dir, ByteBuffer dst, int length, int stag) {
    }

    HostQueue(RdmaDevice dev, Poller poller, int qid, int depth, int capsuleSize, int slotBytes,
            NvmfHost.Registration registration) {
        this.qid = qid;
        this.depth = depth;
        this.capsuleSize = capsuleSize;
        this.slotBytes = slotBytes;
        this.registration = registration;
        this.poller = poller;
        pd = dev.allocatePd();
        cq = dev.createCq(4 * depth + 16);
        qp = pd.createQp(QpInit.rc(cq).maxSendWr(3 * depth + 4).maxRecvWr(depth));
        cmdBuf = ByteBuffer.allocateDirect(depth * capsuleSize);
        cmdMr = pd.register(cmdBuf, Access.LOCAL_WRITE);
        rspBuf = ByteBuffer.allocateDirect(depth * Cqe.SIZE);
        rspMr = pd.register(rspBuf, Access.LOCAL_WRITE);
        dataBuf = ByteBuffer.allocateDirect(depth * slotBytes);
        if (registration == NvmfHost.Registration.POOL) {
            dataMr = pd.register(dataBuf, Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
            fastReg = null;
        } else {
            dataMr = null;
            fastReg = new MemoryRegion[depth];
            for (int i = 0; i < depth; i++) {
                fastReg[i] = pd.allocateFastRegMr(slotBytes);
            }
        }
        stags = new int[depth];
        free = new ArrayBlockingQueue<>(depth);
        pending = new AtomicReferenceArray<>(depth);
        for (int i = 0; i < depth; i++) {
            qp.postRecv(RecvWr.of(i, rspMr.sge(i * Cqe.SIZE, Cqe.SIZE)));
        }
        poller.add(cq, this::onCompletion);
    }

    /** RDMA CM connect with the binding's private data, then the Fabrics Connect command. Returns its response. */
    Cqe connect(RdmaDevice dev, InetSocketAddress target, ConnectOptions options, Fabrics.ConnectData data,
            int kato, boolean connectDataInCapsule) throws IOException, InterruptedException {
        byte[] pd = new CmPrivateData.Request(CmPrivateData.RECFMT_1_0, qid, depth, depth - 1, data.cntlid()).encode();
        try {
            connection = dev.connectionManager().connect(target, qp, options.privateData(pd))
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ConnectionFailedException f && f.privateData() != null
                    && f.privateData().length >= 4) {
                CmPrivateData.Reject r = CmPrivateData.Reject.decode(f.privateData());
                throw new IOException("queue " + qid + ": connect rejected, binding status " + r.status(), f);
            }
            throw new IOException("queue " + qid + ": connect failed: " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("queue " + qid + ": no connect reply in " + WAIT_SECONDS + " s", e);
        }
        // responses that arrived before the close are still in the CQ: complete them before failing the rest
        connection.disconnected().thenRun(() -> poller.execute(() -> {
            Completion[] batch = Completion.array(64);
            int n;
            while (failure == null && (n = cq.poll(batch)) > 0) {
                for (int k = 0; k < n; k++) {
                    onCompletion(batch[k]);
                }
            }
            fail("connection closed");
        }));
        crqsize = CmPrivateData.Accept.decode(connection.peerPrivateData()).crqsize();
        if (crqsize < 1) {
            throw new IOException("queue " + qid + ": controller receive queue size " + crqsize);
        }
        // Keep within the controller's receive queue: at most CRQSIZE commands in flight.
        while (free.size() < Math.min(depth, crqsize)) {
            free.add(free.size());
        }
        Sqe connect = Fabrics.connect(0, qid, depth - 1, qid == 0 ? kato : 0, null);
        ByteBuffer d = ByteBuffer.wrap(data.encode());
        return await(submit(connect, Direction.TO_CONTROLLER, d, connectDataInCapsule));
    }

    static Cqe await(CompletableFuture<Cqe> f) throws IOException, InterruptedException {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("no response in " + WAIT_SECONDS + " s", e);
        }
    }

    int inCapsuleLimit() {
        return capsuleSize - Sqe.SIZE;
    }

    int slotBytes() {
        return slotBytes;
    }

    /** Free command slots now. */
    int idle() {
        return free.size();
    }

    /**
     * Sends {@code sqe} (its CID and SGL are set here) with {@code data}: the source of a write, the
     * sink of a read (filled before the future completes), or null. Waits for a free slot.
     */
    CompletableFuture<Cqe> submit(Sqe sqe, Direction dir, ByteBuffer data, boolean inCapsule)
            throws InterruptedException {
        int length = data == null ? 0 : data.remaining();
        if (length > slotBytes || (inCapsule && length > inCapsuleLimit())) {
            throw new IllegalArgumentException(length + " octets above the queue's limit");
        }
        int slot = free.take();
        CompletableFuture<Cqe> f = new CompletableFuture<>();
        if (failure != null) {
            free.add(slot);
            f.completeExceptionally(new IOException("queue " + qid + ": " + failure));
            return f;
        }
        int at = slot * capsuleSize;
        int sendLength = Sqe.SIZE;
        SendWr reg = null;
        int stag = 0;
        if (dir == Direction.NONE || length == 0) {
            sqe.sgl(Sgl.keyed(0, 0, 0, false));
        } else if (dir == Direction.TO_CONTROLLER && inCapsule) {
            cmdBuf.put(at + Sqe.SIZE, data, data.position(), length);
            sqe.sgl(Sgl.inCapsule(0, length));
            sendLength += length;
        } else {
            if (dir == Direction.TO_CONTROLLER) {
                dataBuf.put(slot * slotBytes, data, data.position(), length);
            }
            if (registration == NvmfHost.Registration.POOL) {
                sqe.sgl(Sgl.keyed(dataMr.address() + (long) slot * slotBytes, length, dataMr.stag(), false));
            } else {
                MemoryRegion mr = fastReg[slot];
                int key = (stags[slot] + 1) & 0xFF;
                stag = (mr.stag() & ~0xFF) | key;
                stags[slot] = stag;
                Access remote = dir == Direction.FROM_CONTROLLER ? Access.REMOTE_WRITE : Access.REMOTE_READ;
                reg = SendWr.fastRegister(mr, Memory.of(dataBuf, slot * slotBytes, length), key, Access.LOCAL_WRITE,
                        remote).fastRegZeroBased().id(slot);
                sqe.sgl(Sgl.keyed(0, length, stag, true));
            }
        }
        sqe.cid(slot).psdt(Sqe.PSDT_SGL).encode(cmdBuf, at); // PSDT 01b: Linux nvmet rejects anything else
        pending.set(slot, new Pending(f, dir, dir == Direction.FROM_CONTROLLER ? data : null, length, stag));
        SendWr send = SendWr.send().id(slot).local(cmdMr.sge(at, sendLength));
        try {
            synchronized (this) {
                if (reg != null) {
                    qp.postSend(reg, send);
                } else {
                    qp.postSend(send);
                }
            }
        } catch (RuntimeException e) {
            pending.set(slot, null);
            free.add(slot);
            f.completeExceptionally(new IOException("queue " + qid + ": post failed: " + e, e));
        }
        return f;
    }

    /** Poller thread: a response completes its slot's command. */
    private void onCompletion(Completion c) {
        if (!c.isOk()) {
            fail(c.opcode() + " " + c.status());
            return;
        }
        if (c.opcode() != CompletionOpcode.RECV) {
            return;
        }
        int i = (int) c.id();
        if (c.byteLength() < Cqe.SIZE) {
            fail("response capsule of " + c.byteLength() + " octets");
            return;
        }
        Cqe cqe = Cqe.decode(rspBuf, i * Cqe.SIZE);
        int slot = cqe.cid();
        Pending p = slot < depth ? pending.getAndSet(slot, null) : null;
        if (p == null) {
            fail("response for command " + slot + " that is not outstanding");
            return;
        }
        String ended = null;
        if (p.stag != 0 && c.hasInvalidatedStag() && c.invalidatedStag() == p.stag) {
            remoteInvalidations.incrementAndGet();
        } else if (p.stag != 0) {
            // not invalidated by the target: invalidate here before the slot registers again
            localInvalidations.incrementAndGet();
            try {
                synchronized (this) {
                    qp.postSend(SendWr.localInvalidate(p.stag).id(slot));
                }
            } catch (RuntimeException e) {
                ended = "local invalidate failed: " + e;
            }
        }
        if (p.dst != null && cqe.isSuccess()) {
            p.dst.duplicate().put(dataBuf.duplicate().position(slot * slotBytes).limit(slot * slotBytes + p.length));
        }
        // Repost before the command completes: a command sent from its callback may be answered at once, and a
        // Send that finds no receive ends the stream (RFC 5041 section 8, DDP untagged: no buffer)
        if (ended == null) {
            try {
                qp.postRecv(RecvWr.of(i, rspMr.sge(i * Cqe.SIZE, Cqe.SIZE)));
            } catch (RuntimeException e) {
                ended = "repost failed: " + e;
            }
        }
        free.add(slot);
        // the response arrived whole: its command completes, whatever becomes of the queue (a Disconnect's response
        // is the last message of its stream, which the target may end before the repost above)
        p.future.complete(cqe);
        if (ended != null) {
            fail(ended); // the commands still outstanding
        }
    }

    /** Responses that invalidated the command's key (Send with Invalidate), and keys invalidated here instead. */
    final java.util.concurrent.atomic.AtomicLong remoteInvalidations = new java.util.concurrent.atomic.AtomicLong();
    final java.util.concurrent.atomic.AtomicLong localInvalidations = new java.util.concurrent.atomic.AtomicLong();

    private void fail(String why) {
        if (failure != null) {
            return;
        }
        failure = why;
        for (int i = 0; i < depth; i++) {
            Pending p = pending.getAndSet(i, null);
            if (p != null) {
                p.future.completeExceptionally(new IOException("queue " + qid + ": " + why));
                free.add(i);
            }
        }
    }

    String failure() {
        return failure;
    }

    Connection connection() {
        return connection;
    }

    /** Orderly disconnect, then the resources. */
    void close() {
        if (connection != null) {
            try {
                connection.disconnect().get(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                connection.close();
            }
        }
        fail("closed");
        poller.execute(() -> {
            poller.remove(cq);
            pd.close();
            cq.close();
        });
    }
}
