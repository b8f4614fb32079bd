package io.jrnic.conform.fuzz;

import io.jrnic.conform.wire.SetupFrame;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * Which execution caused a finding. A crash may surface executions after its input (a kernel worker, a
 * timer, an emulator's slowness), so the last execution is no culprit by default: the search replays the
 * window (the executions of the last seconds before the signal) one by one, newest first, each on a fresh
 * target and followed by as many valid executions as followed it in the run; the first that crashes the
 * target is the culprit, which the {@link Minimizer} then cuts down. When none crashes alone, the window
 * is replayed as a sequence and its start moved forward while it still crashes. When nothing crashes, the
 * finding is "not reproduced" and the window is kept, never one blamed execution.
 */
public final class CulpritSearch {
    /** Restarts the target (before hook), replays, returns the crash evidence or null when it lived. */
    @FunctionalInterface
    public interface Trial {
        String crashes(Reproducer r, String label) throws Exception;
    }

    /**
     * @param windowSeconds the window covers at least the executions of the last this many seconds
     * @param windowMax     but at most this many executions
     * @param maxTrials     replays the search may spend (the minimiser has its own)
     * @param maxFollow     valid executions at most after a replayed execution
     * @param minimizeTries minimiser trials (0: no minimisation)
     * @param settleMillis  after a replay that left the target alive, how long to keep polling the crash hook
     *                      (an oops in a kernel worker comes a moment late)
     * @param repeat        replays of each execution alone, and of the window as a sequence, before it counts as
     *                      not crashing (a crash that comes back one time in two)
     */
    public record Options(long windowSeconds, int windowMax, int maxTrials, int maxFollow, int minimizeTries,
                          long settleMillis, int repeat) {
        public static Options defaults() {
            return new Options(30, 200, 40, 8, 0, 2000, 1);
        }

        public Options withMinimize(int tries) {
            return new Options(windowSeconds, windowMax, maxTrials, maxFollow, tries, settleMillis, repeat);
        }

        public Options withSettle(long millis) {
            return new Options(windowSeconds, windowMax, maxTrials, maxFollow, minimizeTries, millis, repeat);
        }

        public Options withRepeat(int times) {
            return new Options(windowSeconds, windowMax, maxTrials, maxFollow, minimizeTries, settleMillis, times);
        }
    }

    public enum Verdict { EXECUTION, SEQUENCE, NOT_REPRODUCED }

    /**
     * The outcome: the reproducer (null when not reproduced), the minimised one (null unless minimised),
     * the file that holds the answer (the minimal, the culprit, the sequence or the kept window).
     */
    public record Result(Verdict verdict, Reproducer reproducer, Reproducer minimal, String minimalDifference,
                         Reproducer window, Path file, int trials, String evidence, String why) {
        /** "reproduced by execution N (minimised to ...)", "reproduced by the sequence N..M" or "not reproduced". */
        public String summary() {
            return switch (verdict) {
                case EXECUTION -> "reproduced by " + reproducer.label()
                        + (minimal != null ? " (minimised to " + minimalDifference + ")" : " (not minimised)");
                case SEQUENCE -> "reproduced by " + reproducer.label();
                case NOT_REPRODUCED -> "not reproduced (" + why + "; the window " + window.steps().get(0).execution()
                        + ".." + window.steps().get(window.steps().size() - 1).execution() + " is kept)";
            };
        }
    }

    private final Trial trial;
    private final Options options;
    private final SetupFrame seed;
    private final PrintWriter log;
    private int trials;

    public CulpritSearch(Trial trial, Options options, SetupFrame seed, PrintWriter log) {
        this.trial = trial;
        this.options = options;
        this.seed = seed;
        this.log = log;
    }

    /**
     * Searches {@code window} (oldest first) for what crashed the target at execution {@code signalled};
     * writes {@code window.repro} and the answer's file into {@code dir}. Without fresh targets (no before
     * hook) nothing is replayed and the finding is not reproduced.
     */
    public Result search(List<Reproducer.Step> window, long signalled, boolean freshTargets, Path dir) throws Exception {
        Reproducer all = new Reproducer(window, 1);
        Path windowFile = dir.resolve("window.repro");
        all.write(windowFile);
        if (!freshTargets) {
            return notReproduced(all, windowFile, "not searched: no --hook-before to bring a fresh target");
        }
        // the newest executions alone first, keeping some replays (at most half) for the sequence and its bisection
        int reserve = window.size() == 1 ? 0
                : Math.min(options.maxTrials() / 2, options.repeat() + (32 - Integer.numberOfLeadingZeros(window.size() - 1)));
        int lastAloneTried = window.size();
        for (int i = window.size() - 1; i >= 0 && trials < options.maxTrials() - reserve; i--) {
            Result r = alone(window.get(i), signalled, dir);
            if (r != null) {
                return r;
            }
            lastAloneTried = i;
        }
        if (window.size() == 1 && lastAloneTried == 0) {
            return notReproduced(all, windowFile, "the execution did not crash a fresh target");
        }
        if (trials < options.maxTrials()) {
            String e = null;
            for (int k = 0; k < options.repeat() && e == null && trials < options.maxTrials(); k++) {
                e = attempt(all);
            }
            if (e != null) {
                return sequence(window, lastAloneTried < window.size() ? window.size() - 1 : window.size(), e, dir);
            }
            // no sequence to bisect: the replays kept for it go to older executions alone
            for (int i = lastAloneTried - 1; i >= 0 && trials < options.maxTrials(); i--) {
                Result r = alone(window.get(i), signalled, dir);
                if (r != null) {
                    return r;
                }
                lastAloneTried = i;
            }
            return notReproduced(all, windowFile, lastAloneTried == 0 ? "no execution of the window crashed a fresh target,"
                    + " alone or in sequence" : lastAloneTried == window.size() ? "the window as a sequence did not crash a "
                    + "fresh target" : "neither executions " + window.get(lastAloneTried).execution() + ".."
                    + window.get(window.size() - 1).execution() + " alone nor the window as a sequence crashed a fresh target");
        }
        return notReproduced(all, windowFile, "no culprit within " + options.maxTrials() + " replays");
    }

    /** One execution alone, followed by as many valid ones as followed it in the run: the culprit, or null. */
    private Result alone(Reproducer.Step s, long signalled, Path dir) throws Exception {
        int follow = (int) Math.max(1, Math.min(options.maxFollow(), signalled - s.execution()));
        Reproducer one = Reproducer.single(s.execution(), s.input(), follow);
        for (int k = 0; k < options.repeat() && trials < options.maxTrials(); k++) {
            String e = attempt(one);
            if (e != null) {
                return culprit(one, e, dir);
            }
        }
        return null;
    }

    private String attempt(Reproducer r) throws Exception {
        trials++;
        String e = trial.crashes(r, "isolate-" + trials);
        log.println("  isolate try " + trials + ": " + r.label() + (r.follow() > 0 ? " then " + r.follow() + " valid" : "")
                + (e != null ? "  -> crashes: " + e : "  -> lives"));
        log.flush();
        return e;
    }

    private Result culprit(Reproducer one, String evidence, Path dir) throws Exception {
        Path file = dir.resolve("reproducer.repro");
        one.write(file);
        Reproducer.Step s = one.steps().get(0);
        if (options.minimizeTries() <= 0) {
            return new Result(Verdict.EXECUTION, one, null, null, null, file, trials, evidence, null);
        }
        Minimizer m = new Minimizer(c -> trial.crashes(Reproducer.single(s.execution(), c, one.follow()), "minimise") != null,
                log);
        FuzzInput min = m.minimize(s.input(), seed, options.minimizeTries());
        Reproducer minimal = Reproducer.single(s.execution(), min, one.follow());
        Path minFile = dir.resolve("minimal.repro");
        minimal.write(minFile);
        return new Result(Verdict.EXECUTION, one, minimal, Minimizer.difference(min, seed), null, minFile, trials,
                evidence, null);
    }

    /**
     * The whole window crashes: move its start forward (bisection) while it still crashes; from {@code bad} on
     * it is known not to (the last execution alone, or the empty sequence).
     */
    private Result sequence(List<Reproducer.Step> window, int bad, String evidence, Path dir) throws Exception {
        int good = 0;
        while (bad - good > 1 && trials < options.maxTrials()) {
            int mid = (good + bad) >>> 1;
            String e = attempt(new Reproducer(window.subList(mid, window.size()), 1));
            if (e != null) {
                good = mid;
                evidence = e;
            } else {
                bad = mid;
            }
        }
        if (good == window.size() - 1) {   // the last alone (it was not tried alone before)
            Reproducer.Step s = window.get(good);
            return culprit(Reproducer.single(s.execution(), s.input(), 1), evidence, dir);
        }
        Reproducer seq = new Reproducer(window.subList(good, window.size()), 1);
        Path file = dir.resolve("sequence.repro");
        seq.write(file);
        return new Result(Verdict.SEQUENCE, seq, null, null, null, file, trials, evidence, null);
    }

    private Result notReproduced(Reproducer all, Path file, String why) throws IOException {
        return new Result(Verdict.NOT_REPRODUCED, null, null, null, all, file, trials, null, why);
    }

    public int trials() {
        return trials;
    }
}
