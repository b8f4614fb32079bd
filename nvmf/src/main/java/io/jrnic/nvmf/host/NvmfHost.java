package io.jrnic.nvmf.host;

import io.jrnic.nvmf.Poller;
import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.RdmaDevice;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An NVMe over Fabrics host with the NVMe/RDMA transport, on the verbs API: connects the admin
 * queue (Connect, Property Get CAP/VS, Property Set CC.EN, wait for CSTS.RDY, Identify controller
 * and namespace 1, Set Features Number of Queues and the Keep Alive Timer), then the I/O queues;
 * sends Keep Alive at half the timeout; {@link #close()} disconnects the I/O queues, shuts the
 * controller down (CC.SHN) and disconnects the admin queue.
 *
 * <p>Each I/O returns a {@link CompletableFuture}; it completes on the host's poller thread (do not
 * block in a dependent stage; use the {@code *Async} forms for long work). A command fails the
 * future with {@link NvmeStatusException} for an NVMe status, {@link IOException} for the transport.
 */
public final class NvmfHost implements AutoCloseable {
    /** How the data buffers are exposed to the target. */
    public enum Registration {
        /** One region per queue, registered once with remote read and write; no per-I/O work. */
        POOL,
        /** A region fast-registered per command with a fresh key; the target's Send with Invalidate ends it. */
        FAST_REGISTRATION
    }

    /**
     * @param subsystemNqn      the subsystem to connect to
     * @param hostNqn           this host's NQN
     * @param ioQueues          I/O queues (at least 1)
     * @param queueDepth        commands in flight per I/O queue (the queue size)
     * @param keepAliveMillis   KATO sent in Connect (0: no keep-alive)
     * @param registration      how data buffers are registered
     * @param inCapsuleWrites   writes that fit the controller's IOCCSZ travel in the command capsule
     * @param maxTransfer       largest I/O, octets (capped by the controller's MDTS)
     * @param connect           MPA options (CRC)
     */
    public record Options(String subsystemNqn, String hostNqn, int ioQueues, int queueDepth, int keepAliveMillis,
            Registration registration, boolean inCapsuleWrites, int maxTransfer, ConnectOptions connect) {
        public Options {
            if (ioQueues < 1 || queueDepth < 2 || queueDepth > 1024 || keepAliveMillis < 0 || maxTransfer < 4096) {
                throw new IllegalArgumentException("bad host options " + this);
            }
        }

        public static Options defaults(String subsystemNqn) {
            return new Options(subsystemNqn, "nqn.2014-08.org.nvmexpress:uuid:" + UUID.randomUUID(), 2, 32, 5000,
                    Registration.POOL, true, 128 * 1024, ConnectOptions.defaults());
        }

        public Options ioQueues(int n) {
            return new Options(subsystemNqn, hostNqn, n, queueDepth, keepAliveMillis, registration, inCapsuleWrites,
                    maxTransfer, connect);
        }

        public Options queueDepth(int n) {
            return new Options(subsystemNqn, hostNqn, ioQueues, n, keepAliveMillis, registration, inCapsuleWrites,
                    maxTransfer, connect);
        }

        public Options keepAliveMillis(int ms) {
            return new Options(subsystemNqn, hostNqn, ioQueues, queueDepth, ms, registration, inCapsuleWrites,
                    maxTransfer, connect);
        }

        public Options registration(Registration r) {
            return new Options(subsystemNqn, hostNqn, ioQueues, queueDepth, keepAliveMillis, r, inCapsuleWrites,
                    maxTransfer, connect);
        }

        public Options inCapsuleWrites(boolean on) {
            return new Options(subsystemNqn, hostNqn, ioQueues, queueDepth, keepAliveMillis, registration, on,
                    maxTransfer, connect);
        }

        public Options connect(ConnectOptions o) {
            return new Options(subsystemNqn, hostNqn, ioQueues, queueDepth, keepAliveMillis, registration,
                    inCapsuleWrites, maxTransfer, o);
        }
    }

    /** One I/O of a {@link #batch}: a read into {@code buffer} or a write from it. */
    public record Io(boolean write, long lba, ByteBuffer buffer) {
        public static Io read(long lba, ByteBuffer dst) {
            return new Io(false, lba, dst);
        }

        public static Io write(long lba, ByteBuffer src) {
            return new Io(true, lba, src);
        }
    }

    private static final int ADMIN_DEPTH = 32;
    private static final int ADMIN_DATA = 4096;
    private final Options o;
    private final Poller poller;
    private final HostQueue admin;
    private final List<HostQueue> io = new ArrayList<>();
    private final AtomicLong next = new AtomicLong();
    private final ByteBuffer identifyController;
    private final int cntlid;
    private final long blocks;
    private final int blockSize;
    private final int maxTransfer;
    private final int ioccsz;
    private volatile long lastKeepAlive = System.nanoTime();
    private volatile boolean keepAliveInFlight;
    private volatile boolean closed;
    private volatile boolean connected;

    private NvmfHost(RdmaDevice dev, InetSocketAddress target, Options o) throws IOException, InterruptedException {
        this.o = o;
        poller = new Poller("nvmf-host", this::tick);
        byte[] hostId = uuidBytes(UUID.nameUUIDFromBytes(o.hostNqn().getBytes(StandardCharsets.UTF_8)));
        HostQueue a = new HostQueue(dev, poller, 0, ADMIN_DEPTH, Sqe.SIZE + Fabrics.ConnectData.SIZE, ADMIN_DATA,
                Registration.POOL);
        admin = a;
        try {
            Fabrics.ConnectData data = new Fabrics.ConnectData(hostId, Fabrics.CNTLID_DYNAMIC, o.subsystemNqn(),
                    o.hostNqn());
            cntlid = checkNow("Connect (admin)", a.connect(dev, target, o.connect(), data, o.keepAliveMillis(), false)).dw0()
                    & 0xFFFF;
            long cap = property(Fabrics.CAP, Fabrics.SIZE_8);
            int timeoutMillis = (int) ((cap >>> 24) & 0xFF) * 500;
            // CC: EN, CSS NVM, MPS 4 KiB, IOSQES 6 (64 octets), IOCQES 4 (16 octets)
            admin(Fabrics.propertySet(0, Fabrics.CC, Fabrics.SIZE_4, 1 | 6 << 16 | 4 << 20), null);
            waitFor(timeoutMillis, csts -> (csts & 1) != 0, "CSTS.RDY");
            identifyController = identify(Opcodes.CNS_CONTROLLER, 0);
            ByteBuffer ns = identify(Opcodes.CNS_NAMESPACE, 1);
            blocks = ns.getLong(0);
            int lbaf = ns.get(26) & 0xF;
            blockSize = 1 << ((ns.getInt(128 + 4 * lbaf) >>> 16) & 0xFF);
            int mdts = identifyController.get(77) & 0xFF;
            maxTransfer = mdts == 0 ? o.maxTransfer() : Math.min(o.maxTransfer(), 4096 << mdts);
            ioccsz = identifyController.getInt(1792);
            int ncq = o.ioQueues();
            Cqe q = admin(new Sqe().opcode(Opcodes.ADMIN_SET_FEATURES).cdw(10, Opcodes.FEATURE_NUMBER_OF_QUEUES)
                    .cdw(11, (ncq - 1) << 16 | (ncq - 1)), null);
            int granted = Math.min(q.dw0() & 0xFFFF, q.dw0() >>> 16) + 1;
            if (granted < ncq) {
                throw new IOException("controller granted " + granted + " I/O queues of " + ncq);
            }
            int inCapsule = Math.max(0, ioccsz * 16 - Sqe.SIZE);
            for (int qid = 1; qid <= ncq; qid++) {
                HostQueue h = new HostQueue(dev, poller, qid, o.queueDepth(), Sqe.SIZE + inCapsule, maxTransfer,
                        o.registration());
                io.add(h);
                Fabrics.ConnectData d = new Fabrics.ConnectData(hostId, cntlid, o.subsystemNqn(), o.hostNqn());
                checkNow("Connect (queue " + qid + ")", h.connect(dev, target, o.connect(), d, 0,
                        inCapsule >= Fabrics.ConnectData.SIZE));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            abort();
            throw e;
        }
        connected = true;
    }

    /**
     * Connects to the subsystem {@code o.subsystemNqn()} at {@code target}.
     *
     * @throws IOException the target refused (rejected connection or NVMe status), or did not answer
     */
    public static NvmfHost connect(RdmaDevice dev, InetSocketAddress target, Options o)
            throws IOException, InterruptedException {
        return new NvmfHost(dev, target, o);
    }

    public long blocks() {
        return blocks;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Largest I/O in octets (the controller's MDTS and the host's option). */
    public int maxTransfer() {
        return maxTransfer;
    }

    public int controllerId() {
        return cntlid;
    }

    public int ioQueues() {
        return io.size();
    }

    /** The Identify Controller data (4096 octets, little-endian). */
    public ByteBuffer identifyController() {
        return identifyController.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes {@code src.remaining()} octets (whole blocks) at block {@code lba}; src is copied before return. */
    public CompletableFuture<Void> write(long lba, ByteBuffer src) throws InterruptedException {
        return io(true, lba, src, queue());
    }

    /** Reads {@code dst.remaining()} octets (whole blocks) at block {@code lba} into dst (its position stays). */
    public CompletableFuture<Void> read(long lba, ByteBuffer dst) throws InterruptedException {
        return io(false, lba, dst, queue());
    }

    /** NVM Flush of namespace 1. */
    public CompletableFuture<Void> flush() throws InterruptedException {
        HostQueue q = queue();
        return q.submit(new Sqe().opcode(Opcodes.IO_FLUSH).nsid(1), HostQueue.Direction.NONE, null, false)
                .thenApply(c -> check("Flush", c)).thenApply(c -> null);
    }

    /** Submits every I/O of {@code ios} (on one queue, in order) and completes when all have. */
    public CompletableFuture<Void> batch(List<Io> ios) throws InterruptedException {
        HostQueue q = queue();
        CompletableFuture<?>[] all = new CompletableFuture<?>[ios.size()];
        for (int k = 0; k < all.length; k++) {
            Io x = ios.get(k);
            all[k] = io(x.write(), x.lba(), x.buffer(), q);
        }
        return CompletableFuture.allOf(all);
    }

    private CompletableFuture<Void> io(boolean write, long lba, ByteBuffer buf, HostQueue q)
            throws InterruptedException {
        int length = buf.remaining();
        if (length == 0 || length % blockSize != 0 || length > maxTransfer) {
            throw new IllegalArgumentException("I/O of " + length + " octets: whole blocks of " + blockSize
                    + ", at most " + maxTransfer);
        }
        Sqe sqe = new Sqe().opcode(write ? Opcodes.IO_WRITE : Opcodes.IO_READ).nsid(1).cdw(10, (int) lba)
                .cdw(11, (int) (lba >>> 32)).cdw(12, length / blockSize - 1);
        boolean inCapsule = write && o.inCapsuleWrites() && length <= q.inCapsuleLimit();
        return q.submit(sqe, write ? HostQueue.Direction.TO_CONTROLLER : HostQueue.Direction.FROM_CONTROLLER, buf,
                inCapsule).thenApply(c -> check(write ? "Write" : "Read", c)).thenApply(c -> null);
    }

    private HostQueue queue() {
        if (closed) {
            throw new IllegalStateException("host closed");
        }
        return io.get((int) (next.getAndIncrement() % io.size()));
    }

    /** The admin queue (tests). */
    HostQueue adminQueue() {
        return admin;
    }

    /** An I/O queue by index (tests). */
    HostQueue ioQueue(int k) {
        return io.get(k);
    }

    /** Sends {@code sqe} on the admin queue and waits; {@code dst} receives data (or null). Any status returns. */
    public Cqe adminCommand(Sqe sqe, ByteBuffer dst) throws IOException, InterruptedException {
        return HostQueue.await(admin.submit(sqe, dst == null ? HostQueue.Direction.NONE
                : HostQueue.Direction.FROM_CONTROLLER, dst, false));
    }

    /** Sends {@code sqe} on I/O queue {@code k} with data to the controller or from it; any status returns. */
    public Cqe ioCommand(int k, Sqe sqe, ByteBuffer data, boolean toController, boolean inCapsule)
            throws IOException, InterruptedException {
        HostQueue.Direction d = data == null ? HostQueue.Direction.NONE
                : toController ? HostQueue.Direction.TO_CONTROLLER : HostQueue.Direction.FROM_CONTROLLER;
        return HostQueue.await(io.get(k).submit(sqe, d, data, inCapsule));
    }

    private Cqe admin(Sqe sqe, ByteBuffer dst) throws IOException, InterruptedException {
        return checkNow("admin opcode 0x" + Integer.toHexString(sqe.opcode()), adminCommand(sqe, dst));
    }

    private long property(int offset, int size) throws IOException, InterruptedException {
        Cqe c = admin(Fabrics.propertyGet(0, offset, size), null);
        return Integer.toUnsignedLong(c.dw0()) | (size == Fabrics.SIZE_8 ? (long) c.dw1() << 32 : 0);
    }

    private ByteBuffer identify(int cns, int nsid) throws IOException, InterruptedException {
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        admin(new Sqe().opcode(Opcodes.ADMIN_IDENTIFY).nsid(nsid).cdw(10, cns), b);
        return b;
    }

    private void waitFor(int timeoutMillis, java.util.function.IntPredicate ok, String what)
            throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(timeoutMillis, 500));
        while (!ok.test((int) property(Fabrics.CSTS, Fabrics.SIZE_4))) {
            if (System.nanoTime() - end > 0) {
                throw new IOException(what + " not reached within " + timeoutMillis + " ms");
            }
            Thread.sleep(1);
        }
    }

    /** In a future's stage: a failed status fails the stage. */
    private static Cqe check(String what, Cqe c) {
        if (!c.isSuccess()) {
            throw new java.util.concurrent.CompletionException(new NvmeStatusException(what, c));
        }
        return c;
    }

    private static Cqe checkNow(String what, Cqe c) throws NvmeStatusException {
        if (!c.isSuccess()) {
            throw new NvmeStatusException(what, c);
        }
        return c;
    }

    /** Poller tick: a Keep Alive every KATO / 2 (one at a time; never blocks the poller). */
    private void tick() {
        long kato = o.keepAliveMillis();
        if (kato == 0 || !connected || closed || keepAliveInFlight || admin.failure() != null
                || System.nanoTime() - lastKeepAlive < TimeUnit.MILLISECONDS.toNanos(kato / 2)) {
            return;
        }
        if (admin.idle() == 0) {
            return;
        }
        keepAliveInFlight = true;
        lastKeepAlive = System.nanoTime();
        try {
            admin.submit(new Sqe().opcode(Opcodes.ADMIN_KEEP_ALIVE), HostQueue.Direction.NONE, null, false)
                    .whenComplete((c, e) -> keepAliveInFlight = false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Orderly disconnect: I/O queues, then CC.SHN (normal shutdown) and the admin queue. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (HostQueue q : io) {
            q.close();
        }
        try {
            if (admin.failure() == null) {
                admin(Fabrics.propertySet(0, Fabrics.CC, Fabrics.SIZE_4, 1 | 6 << 16 | 4 << 20 | 1 << 14), null);
                waitFor(5000, csts -> ((csts >>> 2) & 3) == 2, "CSTS.SHST complete");
            }
        } catch (IOException | RuntimeException e) {
            // the association is going anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        admin.close();
        poller.close();
    }

    private void abort() {
        closed = true;
        for (HostQueue q : io) {
            q.close();
        }
        admin.close();
        poller.close();
    }

    private static byte[] uuidBytes(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }
}
