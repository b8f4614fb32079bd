package io.jrnic.conform;

import io.jrnic.conform.rping.RawPeer;
import io.jrnic.conform.wire.Recording;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs cases one after another: the before hook, the case's script under a watchdog, the after hook,
 * the health check, the verdict. A case whose script cannot reach the target after the previous case
 * completed marks that previous case CRASHED (without a health hook, a refused connection, or in the
 * responder role no connection within the wait, is the only sign of a dead target); two unreachable
 * cases in a row end the run.
 */
public final class ConformRunner {
    private final ConformOptions options;
    private final Target target;

    public ConformRunner(ConformOptions options, Target target) {
        this.options = options;
        this.target = target;
    }

    /** Runs the cases of one role; {@code progress} sees each result as it is decided. */
    public List<CaseResult> run(Role role, List<ConformCase> cases, Consumer<CaseResult> progress) throws Exception {
        List<CaseResult> results = new ArrayList<>();
        ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "conform-case");
            t.setDaemon(true);
            return t;
        });
        ServerSocket listener = null;
        try {
            if (role == Role.RESPONDER) {
                listener = new ServerSocket();
                listener.setReuseAddress(true);
                listener.bind(new InetSocketAddress(options.servePort()));
            }
            int unreachableInARow = 0;
            for (ConformCase c : cases) {
                if (unreachableInARow >= 2) {
                    CaseResult r = new CaseResult(c, null, Verdict.ERROR, "not run: the target is unreachable", 0,
                            new Recording(c.id()));
                    results.add(r);
                    progress.accept(r);
                    continue;
                }
                CaseResult r = runOne(c, exec, listener);
                if (r.observation() != null && r.observation().kind() == Observation.Kind.UNREACHABLE
                        && r.observation().detail() != null && (r.observation().detail().startsWith("connect")
                        || r.observation().detail().startsWith("no connection"))) {
                    unreachableInARow++;
                    int prev = results.size() - 1;
                    if (prev >= 0 && results.get(prev).verdict() != Verdict.ERROR
                            && results.get(prev).verdict() != Verdict.CRASHED) {
                        CaseResult p = results.get(prev);
                        results.set(prev, p.withVerdict(Verdict.CRASHED, "the target refused the next connection after "
                                + "this case (" + p.reason() + ")"));
                        progress.accept(results.get(prev));
                    }
                } else {
                    unreachableInARow = 0;
                }
                results.add(r);
                progress.accept(r);
            }
        } finally {
            exec.shutdownNow();
            if (listener != null) {
                listener.close();
            }
        }
        return results;
    }

    private CaseResult runOne(ConformCase c, ExecutorService exec, ServerSocket listener) {
        Recording rec = new Recording(c.id());
        long t0 = System.nanoTime();
        Observation o;
        String toolError = null;
        try {
            target.before(c);
        } catch (Exception e) {
            return new CaseResult(c, null, Verdict.ERROR, "before hook failed: " + e.getMessage(), 0, rec);
        }
        CaseContext ctx = new CaseContext(options, rec, listener);
        Future<Observation> f = exec.submit(() -> c.script().run(ctx));
        long budget = options.timeout().toMillis() * 8 + options.stallTimeout().toMillis() + options.connectWait().toMillis();
        try {
            o = f.get(budget, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            o = null;
            toolError = "the case did not finish within " + budget + " ms";
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CaseContext.UnreachableException) {
                o = Observation.of(Observation.Kind.UNREACHABLE, cause.getMessage());
            } else if (cause instanceof RawPeer.TargetProtocolException) {
                o = Observation.of(Observation.Kind.VIOLATED, cause.getMessage());
            } else {
                o = null;
                toolError = String.valueOf(cause);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CaseResult(c, null, Verdict.ERROR, "interrupted", 0, rec);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000L;
        try {
            target.after(c);
        } catch (Exception e) {
            toolError = toolError == null ? "after hook failed: " + e.getMessage() : toolError;
        }
        String dead;
        try {
            dead = target.health();
        } catch (Exception e) {
            dead = "health hook failed: " + e.getMessage();
        }
        if (o == null) {
            return new CaseResult(c, null, dead != null ? Verdict.CRASHED : Verdict.ERROR,
                    dead != null ? dead : toolError, ms, rec);
        }
        Expect.Judgement j = c.expect().judge(o, c.strictness());
        if (dead != null) {
            return new CaseResult(c, o, Verdict.CRASHED, dead + " (the case saw " + o.brief() + ")", ms, rec);
        }
        return new CaseResult(c, o, j.verdict(), j.reason(), ms, rec);
    }
}
