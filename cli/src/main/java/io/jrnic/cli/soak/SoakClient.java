package io.jrnic.cli.soak;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * The active side of a soak: random-size RDMA WRITE, READ and SEND over several QPs against a {@link SoakServer}
 * (in this process or another), every byte checked end to end. The client keeps a shadow of each server region:
 * a WRITE is read back with a READ of the same range and compared with what was written; a READ is compared with
 * the shadow (what the client last wrote there); a SEND is compared with the CRC32C and length the server answers.
 */
public final class SoakClient {
    static final int REGION = 4 << 20;
    /** How long one work request may take before the run counts it failed and stops (longer than a stall timeout). */
    static final long WR_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(150);

    private final AtomicLong moved = new AtomicLong();
    private final AtomicLong mismatches = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Map<AsyncEventType, Long> events = new EnumMap<>(AsyncEventType.class);

    /** What a run did. */
    public record Report(long moved, long mismatches, long failures, double seconds, boolean timeLimited, String events) {
        public boolean ok() {
            return mismatches == 0 && failures == 0;
        }
    }

    /**
     * Moves {@code volume} bytes over {@code qps} QPs to {@code server}, printing progress every {@code interval}
     * seconds; stops posting new work at {@code deadline} (System.nanoTime).
     */
    public Report run(InetSocketAddress server, ConnectOptions options, int qps, long volume, int maxSize, long seed,
                      int interval, long deadline, PrintWriter out) throws Exception {
        long t0 = System.nanoTime();
        int runId = ThreadLocalRandom.current().nextInt();
        ConnectOptions announced = options.privateData(ByteBuffer.allocate(8).putInt(runId).putInt(qps).array());
        boolean timeLimited;
        long stallTimeouts = 0;
        try (RdmaDevice dev = Rdma.open("soft")) {
            dev.onAsyncEvent(e -> {
                synchronized (events) {
                    events.merge(e.type(), 1L, Long::sum);
                }
            });
            ProtectionDomain pd = dev.allocatePd();
            List<Side> sides = new ArrayList<>();
            for (int i = 0; i < qps; i++) {
                Side s = new Side(dev, pd);
                sides.add(s);
                Connection c = dev.connectionManager().connect(server, s.qp, announced).get(30, TimeUnit.SECONDS);
                s.remote = RemoteBuffer.parse(c.peerPrivateData());
            }
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < qps; i++) {
                Side s = sides.get(i);
                long share = volume / qps + (i < volume % qps ? 1 : 0);
                SplittableRandom random = new SplittableRandom(seed * 31 + i);
                Thread t = new Thread(() -> traffic(s, share, maxSize, random, deadline), "soak-" + i);
                threads.add(t);
                t.start();
            }
            long last = t0;
            long lastBytes = 0;
            while (threads.stream().anyMatch(Thread::isAlive)) {
                Thread.sleep(100);
                long now = System.nanoTime();
                if (now - last >= interval * 1_000_000_000L) {
                    long b = moved.get();
                    out.printf(Locale.ROOT, "%7.1f s  %,18d bytes  %9.1f MB/s  mismatches %d  failed WRs %d%n",
                            (now - t0) / 1e9, b, (b - lastBytes) * 1e3 / (now - last), mismatches.get(), failures.get());
                    out.flush();
                    last = now;
                    lastBytes = b;
                }
            }
            timeLimited = System.nanoTime() - deadline >= 0 && moved.get() < volume;
            for (Side s : sides) {
                stallTimeouts += s.qp.stats().counter("transmitStallTimeouts");
                Connection c = s.qp.connection();
                try {
                    if (c != null) {
                        c.disconnect().get(10, TimeUnit.SECONDS);
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    failures.incrementAndGet(); // an orderly close that did not finish in 10 s
                }
                s.close();
            }
        }
        String ev;
        synchronized (events) {
            ev = events + "; transmit stall timeouts " + stallTimeouts;
        }
        return new Report(moved.get(), mismatches.get(), failures.get(), (System.nanoTime() - t0) / 1e9, timeLimited, ev);
    }

    /** One QP of the client: its source, landing and shadow of the server's region, and the reply buffer. */
    private static final class Side implements AutoCloseable {
        final CompletionQueue cq;
        final QueuePair qp;
        final byte[] mem = new byte[REGION];
        final byte[] landing = new byte[REGION];
        /** What the server's region holds if every WRITE landed (it starts zeroed). */
        final byte[] shadow = new byte[REGION];
        final byte[] reply = new byte[SoakTarget.REPLY];
        final MemoryRegion mr;
        final MemoryRegion landingMr;
        final MemoryRegion replyMr;
        final Completion[] one = Completion.array(1);
        RemoteBuffer remote;

        Side(RdmaDevice dev, ProtectionDomain pd) {
            cq = dev.createCq(64);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(8).maxRecvWr(8));
            mr = pd.register(mem, Access.LOCAL_WRITE);
            landingMr = pd.register(landing, Access.LOCAL_WRITE);
            replyMr = pd.register(reply, Access.LOCAL_WRITE);
        }

        /** The next completion (0.1 ms sleeps between empty polls), or null after {@link #WR_TIMEOUT_NANOS}. */
        Completion next() throws InterruptedException {
            long until = System.nanoTime() + WR_TIMEOUT_NANOS;
            while (cq.poll(one, 0, 1) == 0) {
                if (System.nanoTime() - until >= 0) {
                    return null;
                }
                Thread.sleep(0, 100_000);
            }
            return one[0];
        }

        @Override
        public void close() {
            qp.close();
            cq.close();
            mr.close();
            landingMr.close();
            replyMr.close();
        }
    }

    static long crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return c.getValue();
    }

    /** Runs one QP until {@code share} bytes moved, a work request failed, or the deadline. */
    private void traffic(Side c, long share, int maxSize, SplittableRandom random, long deadline) {
        try {
            long done = 0;
            while (done < share && System.nanoTime() - deadline < 0) {
                int len = (int) Math.min(random.nextInt(maxSize + 1), share - done);
                int local = random.nextInt(REGION - len + 1);
                int remote = random.nextInt(REGION - len + 1);
                switch (random.nextInt(3)) {
                    case 0 -> { // WRITE, then READ the same range back
                        fill(c.mem, local, len, random);
                        c.qp.postSend(SendWr.rdmaWrite().local(c.mr, local, len).remote(c.remote, remote).signaled());
                        if (!ok(c.next())) {
                            return;
                        }
                        System.arraycopy(c.mem, local, c.shadow, remote, len);
                        c.qp.postSend(SendWr.rdmaRead().local(c.landingMr, local, len).remote(c.remote, remote).signaled());
                        if (!ok(c.next())) {
                            return;
                        }
                        compare(crc(c.mem, local, len), crc(c.landing, local, len));
                        done += 2L * len;
                        moved.addAndGet(2L * len);
                    }
                    case 1 -> { // READ what the server holds, compared with the shadow
                        c.qp.postSend(SendWr.rdmaRead().local(c.landingMr, local, len).remote(c.remote, remote).signaled());
                        if (!ok(c.next())) {
                            return;
                        }
                        compare(crc(c.shadow, remote, len), crc(c.landing, local, len));
                        done += len;
                        moved.addAndGet(len);
                    }
                    default -> { // SEND (a data SEND starts with 0); the server answers with its length and CRC32C
                        fill(c.mem, local, len, random);
                        if (len > 0) {
                            c.mem[local] = 0;
                        }
                        if (!send(c, local, len)) {
                            return;
                        }
                        done += len;
                        moved.addAndGet(len);
                    }
                }
            }
            c.mem[0] = SoakTarget.GOODBYE; // this QP is done: the server tells a finished client from a lost one
            send(c, 0, 1);
        } catch (InterruptedException | RuntimeException e) {
            failures.incrementAndGet();
        }
    }

    /** One SEND of {@code len} octets at {@code local} and the server's answer; false if a work request failed. */
    private boolean send(Side c, int local, int len) throws InterruptedException {
        c.qp.postRecv(RecvWr.of(1, c.replyMr.sge(0, SoakTarget.REPLY)));
        c.qp.postSend(SendWr.send().id(2).local(c.mr, local, len).signaled());
        Completion answer = null;
        for (int i = 0; i < 2; i++) {
            Completion k = c.next();
            if (!ok(k)) {
                return false;
            }
            if (k.opcode() == CompletionOpcode.RECV) {
                answer = k.snapshot();
            }
        }
        ByteBuffer r = ByteBuffer.wrap(c.reply);
        if (answer == null || answer.byteLength() != SoakTarget.REPLY || r.getInt() != len
                || r.getLong() != crc(c.mem, local, len)) {
            mismatches.incrementAndGet();
        }
        return true;
    }

    private boolean ok(Completion c) {
        if (c == null || c.status() != CompletionStatus.SUCCESS) {
            failures.incrementAndGet();
            return false;
        }
        return true;
    }

    private void compare(long expected, long actual) {
        if (expected != actual) {
            mismatches.incrementAndGet();
        }
    }

    private static void fill(byte[] b, int off, int len, SplittableRandom random) {
        long x = random.nextLong();
        for (int i = 0; i < len; i++) {
            if ((i & 7) == 0) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            b[off + i] = (byte) (x >>> ((i & 7) * 8));
        }
    }

    /** This process's open file descriptors, or -1 where the platform does not say. */
    static long openFds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u) {
            return u.getOpenFileDescriptorCount();
        }
        return -1;
    }
}
