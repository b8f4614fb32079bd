package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.fault.FaultPlan;
import io.jrnic.interop.fault.FaultProxy;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connections cut at a random byte (RST or FIN, by the {@link FaultProxy}) in the middle of mixed traffic:
 * Writes, Reads, Sends and Fetch-and-Adds of 0 B..1 MiB. Every posted work request on both sides completes,
 * successfully or with an error/flush status, within the test's time; both QPs end in ERROR (or IDLE when
 * a FIN fell after the last work request retired: an orderly close); no byte outside the target regions changes (guard bytes
 * around them); and the devices serve a new, clean connection afterwards. {@code -Djrnic.cuts=N} sets the
 * number of cut transfers (default 100; {@code -Djrnic.cuts=1000} for the long run).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class CutTransferTest {
    private static final int CUTS = Integer.getInteger("jrnic.cuts", 100);
    private static final int REGION = 1 << 20;
    private static final int GUARD = 4096;
    private static final byte GUARD_BYTE = (byte) 0xC3;
    private static final int WRS = 8;
    private static final int RECVS = 4;

    /** A registered region in the middle of an array whose edges are guard bytes. */
    private static final class Guarded {
        final byte[] array = new byte[GUARD + REGION + GUARD];
        final MemoryRegion mr;

        Guarded(io.jrnic.verbs.ProtectionDomain pd, Access... access) {
            Arrays.fill(array, GUARD_BYTE);
            mr = pd.register(ByteBuffer.wrap(array, GUARD, REGION).slice(), access);
        }

        void checkGuards() {
            for (int i = 0; i < GUARD; i++) {
                assertEquals(GUARD_BYTE, array[i], "guard byte before the region changed at " + i);
                assertEquals(GUARD_BYTE, array[GUARD + REGION + i], "guard byte after the region changed at " + i);
            }
        }
    }

    /** Transfers before the heap's starting level is taken. */
    private static final int WARM_UP = 10;
    /** The heap after the cut transfers may exceed its starting level by this much (GC noise), not more. */
    private static final long HEAP_SLACK = 4L << 20;

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void everyWorkRequestCompletesWhereverTheStreamIsCut() throws Exception {
        Map<CompletionStatus, Integer> outcomes = new EnumMap<>(CompletionStatus.class);
        int cutsSeen = 0;
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Guarded aMem = new Guarded(a.pd, Access.LOCAL_WRITE);
            Guarded bMem = new Guarded(b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_ATOMIC);
            BlockingQueue<QueuePair> accepted = new ArrayBlockingQueue<>(1);
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> {
                QueuePair qp = b.pd.createQp(QpInit.rc(b.cq).maxSendWr(16).maxRecvWr(16));
                for (int i = 0; i < RECVS; i++) {
                    qp.postRecv(RecvWr.of(1000 + i, bMem.mr.sge(i * 4096, 4096)));
                }
                r.accept(qp, AcceptOptions.defaults());
                accepted.add(qp);
            });
            SplittableRandom random = new SplittableRandom(2026);
            long heapStart = 0;
            for (int n = 0; n < CUTS; n++) {
                if (n == WARM_UP) {
                    a.events.clear(); // the fixture's record of async events refers to the QPs
                    b.events.clear();
                    heapStart = heapAfterGc(); // steady state: classes loaded, pools and caches filled
                }
                boolean reset = random.nextBoolean();
                long cutAt = random.nextLong(200, 1L << 20);
                FaultPlan plan = FaultPlan.of(n).withCut(cutAt, reset)
                        .on(random.nextBoolean() ? FaultPlan.Direction.CLIENT_TO_TARGET : FaultPlan.Direction.TARGET_TO_CLIENT);
                try (FaultProxy proxy = FaultProxy.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        l.localAddress(), plan)) {
                    QueuePair qa = a.pd.createQp(QpInit.rc(a.cq).maxSendWr(16).maxRecvWr(16));
                    Connection c;
                    try {
                        c = a.cm.connect(proxy.address(), qa, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS);
                    } catch (ExecutionException setUpCut) {
                        // the cut fell inside the MPA set-up: nothing was posted, the QP is unusable
                        cutsSeen++;
                        SoftPair.eventually(() -> qa.state() == QpState.ERROR || qa.state() == QpState.IDLE);
                        QueuePair qb = accepted.poll(5, TimeUnit.SECONDS);
                        if (qb != null) {
                            drain(b.cq, RECVS, outcomes);
                            qb.close();
                        }
                        qa.close();
                        continue;
                    }
                    QueuePair qb = accepted.take();
                    int posted = post(qa, aMem, bMem, random);
                    drain(a.cq, posted, outcomes, () -> "A " + qa.state() + " " + qa.stats() + "; B " + qb.state()
                            + " " + qb.stats() + "; proxy " + proxy.events() + "; plan " + plan);
                    boolean cut = !proxy.events().isEmpty();
                    if (cut) {
                        cutsSeen++;
                        // ERROR; or IDLE when a FIN came after the last work request retired (an orderly close)
                        SoftPair.eventually(() -> qa.state() == QpState.ERROR || qa.state() == QpState.IDLE);
                        SoftPair.eventually(() -> qb.state() == QpState.ERROR || qb.state() == QpState.IDLE);
                    } else {
                        c.close();
                    }
                    drain(b.cq, RECVS, outcomes);
                    qa.close();
                    qb.close();
                }
                aMem.checkGuards();
                bMem.checkGuards();
            }
            if (CUTS > WARM_UP) {
                a.events.clear();
                b.events.clear();
                long heapGrowth = heapAfterGc() - heapStart;
                System.out.println("CutTransferTest: heap after GC grew by " + (heapGrowth >> 10) + " KiB over "
                        + (CUTS - WARM_UP) + " cut transfers");
                assertTrue(heapGrowth < HEAP_SLACK, (heapGrowth >> 10) + " KiB of heap kept by " + (CUTS - WARM_UP)
                        + " cut transfers (a leak of per-connection state)");
            }
            // the devices still serve a clean connection
            QueuePair qa = a.pd.createQp(QpInit.rc(a.cq).maxSendWr(16).maxRecvWr(16));
            a.cm.connect(l.localAddress(), qa, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS);
            QueuePair qb = accepted.take();
            qa.postSend(SendWr.rdmaWrite().id(1).local(aMem.mr, 0, 4096).remote(bMem.mr.stag(), 0).signaled());
            Completion done = a.await(1).get(0);
            assertEquals(CompletionStatus.SUCCESS, done.status());
            qa.close();
            qb.close();
            drain(b.cq, RECVS, outcomes);
        }
        System.out.println("CutTransferTest: " + CUTS + " transfers, " + cutsSeen + " cut; completions " + outcomes);
        assertTrue(cutsSeen > 0, "no transfer was cut");
    }

    /**
     * Posts up to WRS signaled WRs of mixed opcodes and sizes; returns how many were posted (a cut early in the
     * stream can move the QP to ERROR before all are posted: posting then fails at once with QpStateException,
     * and that WR never completes).
     */
    private static int post(QueuePair qa, Guarded aMem, Guarded bMem, SplittableRandom random) {
        for (int i = 0; i < WRS; i++) {
            SendWr wr = switch (random.nextInt(4)) {
                case 0 -> SendWr.rdmaWrite().local(aMem.mr, 0, random.nextInt(REGION + 1)).remote(bMem.mr.stag(), 0);
                case 1 -> SendWr.rdmaRead().local(aMem.mr, 0, random.nextInt(REGION + 1)).remote(bMem.mr.stag(), 0);
                case 2 -> SendWr.send().local(aMem.mr, 0, random.nextInt(4097));
                default -> SendWr.fetchAdd(1).local(aMem.mr, REGION - 8, 8).remote(bMem.mr.stag(), REGION - 64);
            };
            try {
                qa.postSend(wr.id(i).signaled());
            } catch (io.jrnic.verbs.QpStateException cutAlready) {
                return i;
            }
        }
        return WRS;
    }

    /** A transfer's completions not all in after this long is a hang: fail with what the QPs and the proxy say. */
    private static final long HANG_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** Waits for {@code n} completions on {@code cq} (the test's timeout bounds it) and counts their statuses. */
    private static void drain(CompletionQueue cq, int n, Map<CompletionStatus, Integer> outcomes) throws Exception {
        drain(cq, n, outcomes, () -> "");
    }

    /** The same; a hang fails with {@code context} (QP states, counters, the proxy's events). */
    private static void drain(CompletionQueue cq, int n, Map<CompletionStatus, Integer> outcomes,
                              java.util.function.Supplier<String> context) throws Exception {
        Completion[] batch = Completion.array(16);
        int got = 0;
        long start = System.nanoTime();
        while (got < n) {
            if (System.nanoTime() - start > HANG_NANOS) {
                throw new AssertionError(got + " of " + n + " completions after 60 s: " + context.get());
            }
            int k = cq.poll(batch, 0, Math.min(16, n - got));
            for (int i = 0; i < k; i++) {
                outcomes.merge(batch[i].status(), 1, Integer::sum);
            }
            got += k;
            if (k == 0) {
                Thread.sleep(1);
            }
        }
    }
}
