package io.jrnic.cli.tools;

import io.jrnic.cli.perf.Deadline;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.CqInit;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One side of a librdmacm example tool on the soft RNIC: device, PD, a send and a receive CQ
 * (cmatose keeps them apart; rdma_server/rdma_client share the idea), the connection manager,
 * and bounded completion waits. Closing it closes the device and everything under it.
 */
final class CmSide implements AutoCloseable {
    final RdmaDevice dev;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final ConnectionManager cm;
    private final Completion[] wcs = Completion.array(8);
    private final long stallNanos;

    CmSide(String provider, int cqDepth, long stallSeconds) {
        dev = Rdma.open(provider);
        try {
            pd = dev.allocatePd();
            sendCq = dev.createCq(CqInit.of(Math.max(1, cqDepth)).context("send"));
            recvCq = dev.createCq(CqInit.of(Math.max(1, cqDepth)).context("recv"));
            cm = dev.connectionManager();
        } catch (RuntimeException e) {
            dev.close();
            throw e;
        }
        this.stallNanos = TimeUnit.SECONDS.toNanos(stallSeconds);
    }

    /**
     * Listens on {@code bind} and accepts the first connect request only (later ones are rejected, as a
     * single-connection example does): {@code qpFor} creates the QP and posts its receives before the
     * accept. The future completes once the connection is established.
     */
    CompletableFuture<Connection> acceptOne(InetSocketAddress bind, ConnectOptions options, AcceptOptions accept,
                                            Function<CmSide, QueuePair> qpFor, Listener[] listenerOut) {
        CompletableFuture<Connection> conn = new CompletableFuture<>();
        Listener l = cm.listen(bind, options);
        listenerOut[0] = l;
        boolean[] taken = {false};
        l.onConnectRequest(req -> {
            if (taken[0]) {
                req.reject();
                return;
            }
            taken[0] = true;
            try {
                req.accept(qpFor.apply(this), accept).whenComplete((c, e) -> {
                    if (e != null) {
                        conn.completeExceptionally(e);
                    } else {
                        conn.complete(c);
                    }
                });
            } catch (RuntimeException e) {
                conn.completeExceptionally(e);
            }
        });
        return conn;
    }

    /**
     * Waits for {@code n} successful completions on {@code cq}; each is handed to {@code check} (may be
     * null). A failed completion or {@code stallSeconds} without any progress throws.
     */
    void await(CompletionQueue cq, int n, String what, java.util.function.Consumer<Completion> check)
            throws TimeoutException {
        Deadline d = Deadline.in(Long.MAX_VALUE).stall(stallNanos);
        int done = 0;
        while (done < n) {
            int got = cq.poll(wcs, 0, Math.min(wcs.length, n - done));
            if (got == 0) {
                d.idle(what + " (" + done + " of " + n + ")");
                continue;
            }
            d.progress();
            for (int i = 0; i < got; i++) {
                Completion c = wcs[i];
                if (c.status() != CompletionStatus.SUCCESS) {
                    throw new IllegalStateException(what + ": completion " + (done + i) + " failed: " + c.status()
                            + (c.terminate() == null ? "" : " " + c.terminate()));
                }
                if (check != null) {
                    check.accept(c);
                }
            }
            done += got;
        }
    }

    /**
     * Drops what {@code cq} holds of {@code closed} (a QP closed after a failed connect: its flushed receives). Only
     * that QP uses the CQ at that moment; anything else found is a bug of the caller and fails loudly.
     */
    void dropCompletionsOf(QueuePair closed, CompletionQueue cq) {
        int n;
        while ((n = cq.poll(wcs, 0, wcs.length)) > 0) {
            for (int i = 0; i < n; i++) {
                if (wcs[i].qp() != closed) {
                    throw new IllegalStateException("a completion of another QP on a CQ being reset: " + wcs[i]);
                }
            }
        }
    }

    /** Waits up to {@code seconds} for {@code f}. */
    static <T> T get(CompletableFuture<T> f, long seconds, String what) throws Exception {
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no " + what + " within " + seconds + " s");
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof Exception ex ? ex : e;
        }
    }

    @Override
    public void close() {
        dev.close();
    }
}
