package io.jrnic.bench;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * RDMA WRITE or READ bandwidth between two soft devices in one JVM over loopback, MPA CRC on, with the
 * registered memory on the heap ({@code byte[]}) or direct ({@code ByteBuffer.allocateDirect}): the engine's
 * copy path against its zero-copy transmit path. Not JMH: an end-to-end loop, reported as MB/s over the
 * measured seconds after a warm-up. Runs against any jrnic jar (source launch), for before/after comparisons:
 * {@code java -cp cli/target/jrnic.jar bench/src/main/java/io/jrnic/bench/LoopbackBandwidth.java write 65536 direct}.
 */
public final class LoopbackBandwidth {
    public static void main(String[] args) throws Exception {
        String op = args.length > 0 ? args[0] : "write";
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 65536;
        boolean direct = args.length <= 2 || args[2].equals("direct");
        double seconds = args.length > 3 ? Double.parseDouble(args[3]) : 3;
        int window = op.equals("read") ? 16 : 64;
        try (RdmaDevice da = Rdma.open("soft"); RdmaDevice db = Rdma.open("soft")) {
            ProtectionDomain pa = da.allocatePd();
            ProtectionDomain pb = db.allocatePd();
            CompletionQueue cqa = da.createCq(4096);
            CompletionQueue cqb = db.createCq(4096);
            QueuePair qa = pa.createQp(QpInit.rc(cqa).maxSendWr(1024).maxRecvWr(16));
            QueuePair qb = pb.createQp(QpInit.rc(cqb).maxSendWr(1024).maxRecvWr(16));
            Listener l = db.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            CompletableFuture<Connection> passive = new CompletableFuture<>();
            l.onConnectRequest(r -> r.accept(qb, AcceptOptions.defaults()).whenComplete((c, e) -> passive.complete(c)));
            da.connectionManager().connect(l.localAddress(), qa, ConnectOptions.defaults().crc(true)
                    .peerToPeer(io.jrnic.verbs.RtrType.WRITE)).get(10, TimeUnit.SECONDS);
            passive.get(10, TimeUnit.SECONDS);
            MemoryRegion local = direct ? pa.register(ByteBuffer.allocateDirect(size), Access.LOCAL_WRITE)
                    : pa.register(new byte[size], Access.LOCAL_WRITE);
            MemoryRegion remote = direct
                    ? pb.register(ByteBuffer.allocateDirect(size), Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ)
                    : pb.register(new byte[size], Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            RemoteBuffer rb = remote.advertise();
            SendWr[] wrs = new SendWr[window];
            for (int i = 0; i < window; i++) {
                wrs[i] = (op.equals("read") ? SendWr.rdmaRead() : SendWr.rdmaWrite()).id(i).local(local.sge(0, size))
                        .remote(rb, 0).signaled(i % (window / 4) == window / 4 - 1);
            }
            run(qa, cqa, wrs, 1.0); // warm-up
            long cpu0 = engineCpuNanos();
            long t0 = System.nanoTime();
            long n = run(qa, cqa, wrs, seconds);
            double s = (System.nanoTime() - t0) / 1e9;
            double cpu = (engineCpuNanos() - cpu0) / 1e9;
            // event-loop CPU seconds per GB moved (both ends, kernel time of those threads included): steadier
            // than MB/s on a shared machine, and free of the poller's own spinning
            System.out.printf("%s %d %s %.0f MB/s engine-cpu %.3f s/GB (%d messages in %.2f s, loops' cpu %.2f s)%n",
                    op, size, direct ? "direct" : "heap", n * (double) size / s / 1e6, cpu / (n * (double) size / 1e9),
                    n, s, cpu);
        }
    }

    /** CPU time of the soft devices' event-loop threads (user plus system). */
    private static long engineCpuNanos() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (java.lang.management.ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (ti != null && ti.getThreadName().startsWith("jrnic-soft")) {
                sum += Math.max(0, mx.getThreadCpuTime(ti.getThreadId()));
            }
        }
        return sum;
    }

    /**
     * Keeps the window of WRs outstanding for {@code seconds}, as {@code jrnic perf} does: posted in batches, one
     * in window/4 signaled (completions in order: a completion frees every WR before it), the poller yielding
     * then parking briefly when the CQ is empty (2 cores: a spinning poller would starve the event loops).
     * Returns the messages completed; {@code seconds} is a whole number of window quarters.
     */
    private static long run(QueuePair qp, CompletionQueue cq, SendWr[] wrs, double seconds) throws Exception {
        int window = wrs.length;
        int quarter = window / 4;
        Completion[] cs = Completion.array(64);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long posted = 0;
        long done = 0;
        int idle = 0;
        java.util.List<SendWr> batch = new java.util.ArrayList<>(window);
        while (true) {
            boolean more = System.nanoTime() < end;
            batch.clear();
            while (more && posted - done <= window - quarter) {
                for (int i = 0; i < quarter; i++) {
                    batch.add(wrs[(int) (posted++ % window)]);
                }
            }
            if (!batch.isEmpty()) {
                qp.postSend(batch);
            }
            if (!more && posted == done) {
                return done;
            }
            int k = cq.poll(cs, 0, cs.length);
            for (int i = 0; i < k; i++) {
                if (cs[i].status() != CompletionStatus.SUCCESS) {
                    throw new IllegalStateException(cs[i].toString());
                }
            }
            done += (long) k * quarter;
            if (k > 0) {
                idle = 0;
            } else if (++idle < 50) {
                Thread.yield();
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000);
            }
        }
    }
}
