package io.jrnic.cli.soak;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The passive side of a soak (in this process for a loopback soak, or {@code jrnic soak --server}): accepts the QPs
 * of one client run after another, each with a {@link SoakTarget}. A client names its run and its QP count in the
 * MPA request's private data (int run, int QPs); a run ends when all its QPs ended. After each run it prints what
 * the QPs reported (failed work requests, asynchronous events such as {@code QP_LLP_ERROR}) and what is still held
 * (QPs, open file descriptors) once they were closed.
 */
public final class SoakServer implements AutoCloseable {
    /** First line of {@code jrnic soak --server}'s standard output, followed by host:port. */
    public static final String READY = "jrnic soak server: listening on ";

    private final RdmaDevice device;
    private final ProtectionDomain pd;
    private final Listener listener;
    private final PrintWriter out;
    private final long deadline;
    private final Map<Integer, Run> runs = new LinkedHashMap<>();
    private int runsEnded;
    private int runsFailed;
    private int live;

    /** One client run: the QPs it announced and those that ended. */
    private static final class Run {
        final int id;
        final int qps;
        final List<SoakTarget> targets = new ArrayList<>();
        int ended;

        Run(int id, int qps) {
            this.id = id;
            this.qps = qps;
        }
    }

    /** Listens on {@code local}; every loop of a QP stops at {@code deadline} (System.nanoTime) at the latest. */
    public SoakServer(InetSocketAddress local, ConnectOptions options, long deadline, PrintWriter out) {
        this.out = out;
        this.deadline = deadline;
        device = Rdma.open("soft");
        device.onAsyncEvent(e -> {
            synchronized (this) {
                for (Run r : runs.values()) {
                    for (SoakTarget t : r.targets) {
                        if (t.qp == e.resource()) {
                            t.events.merge(e.type(), 1L, Long::sum);
                        }
                    }
                }
            }
        });
        pd = device.allocatePd();
        listener = device.connectionManager().listen(local, options);
        listener.onConnectRequest(this::request);
    }

    public InetSocketAddress localAddress() {
        return listener.localAddress();
    }

    private void request(ConnectRequest r) {
        byte[] pdata = r.privateData();
        if (pdata.length < 8) {
            r.reject("soak: private data must name the run and its QPs".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(pdata);
        int id = b.getInt();
        int qps = b.getInt();
        SoakTarget t = new SoakTarget(device, pd);
        Run run;
        synchronized (this) {
            run = runs.computeIfAbsent(id, k -> new Run(k, Math.max(1, qps)));
            run.targets.add(t);
            live++;
        }
        Thread th = new Thread(() -> t.serve(deadline), "soak-target-" + id + "-" + run.targets.size());
        th.setDaemon(true);
        r.accept(t.qp, AcceptOptions.defaults().privateData(t.region.advertise()))
                .whenComplete((c, e) -> {
                    if (e != null) {
                        ended(run, t, th);
                    } else {
                        c.disconnected().whenComplete((v, x) -> ended(run, t, th));
                    }
                });
        th.start();
    }

    /** The QP's connection ended: let its thread drain, close it, and when the run is complete, report. */
    private void ended(Run run, SoakTarget t, Thread th) {
        Thread closer = new Thread(() -> {
            t.ended = true;
            try {
                th.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            t.close();
            synchronized (this) {
                live--;
                if (++run.ended == run.qps) {
                    report(run);
                    runs.remove(run.id);
                    runsEnded++;
                    notifyAll();
                }
            }
        }, "soak-close");
        closer.setDaemon(true);
        closer.start();
    }

    private void report(Run run) {
        long verified = 0;
        long failed = 0;
        long stalls = 0;
        Map<AsyncEventType, Long> events = new EnumMap<>(AsyncEventType.class);
        Map<QpState, Integer> states = new EnumMap<>(QpState.class);
        int farewells = 0;
        for (SoakTarget t : run.targets) {
            farewells += t.goodbye ? 1 : 0;
            stalls += t.stallTimeouts;
            t.events.forEach((k, v) -> events.merge(k, v, Long::sum));
            states.merge(t.endState, 1, Integer::sum);
            verified += t.verified.get();
            failed += t.failures.get();
        }
        // an orderly close leaves the QP IDLE (RDMAC verbs: CLOSING -> IDLE); an LLP error or a Terminate, ERROR
        // a client that did not say goodbye on every QP was lost (killed, cut off) even if its kernel closed with a FIN
        boolean lost = farewells < run.qps || states.getOrDefault(QpState.ERROR, 0) > 0 || events.containsKey(AsyncEventType.QP_LLP_ERROR)
                || events.containsKey(AsyncEventType.QP_TERMINATE_RECEIVED)
                || events.containsKey(AsyncEventType.QP_TERMINATE_SENT);
        if (failed > 0 || lost) {
            runsFailed++;
        }
        out.printf(Locale.ROOT, "jrnic soak server: run %08x %s: %d QPs (%d said goodbye), %d SENDs answered, %d failed"
                        + " work requests;"
                        + " QP events %s; QP states at the end %s; transmit stall timeouts %d; still held: %d QPs, %d open file"
                        + " descriptors, %,d B in Netty's pooled direct arenas (chunks and thread caches kept for reuse)%n",
                run.id, lost ? "ended, LOST" : "ended", run.qps, farewells, verified, failed, events, states, stalls, live,
                SoakClient.openFds(), io.netty.buffer.PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
        out.flush();
    }

    /**
     * Serves until {@code count} runs ended or the deadline passed. @return true if every run ended with no failed
     * work request, no LLP error and no Terminate
     */
    public synchronized boolean awaitRuns(int count) throws InterruptedException {
        while (runsEnded < count) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                out.printf("jrnic soak server: time limit reached after %d of %d runs%n", runsEnded, count);
                out.flush();
                return false;
            }
            wait(Math.min(left, 1000));
        }
        return runsFailed == 0;
    }

    @Override
    public void close() {
        listener.close();
        device.close();
    }
}
