package io.jrnic.conform.fuzz;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Role;
import io.jrnic.conform.Target;
import io.jrnic.conform.wire.Recording;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * An in-JVM model of a target with a delayed crash, for the fuzzer and its culprit search: an input that
 * matches {@code arm} arms it, and the {@code delay}-th execution after an input that matches {@code fire}
 * on an armed target crashes it (a kernel oops: the crash hook sees it, TCP still answers, executions after it
 * come back SILENT). {@code arm} = always true is a single culprit; a separate {@code arm} makes a target that
 * needs a sequence. With {@code once}, only the first boot can crash (a crash that does not reproduce); with
 * {@code crashEvery} 2, one boot in two (a flaky one).
 * {@link #before} boots a fresh one. Execution numbers are the run's (1-based; replays are not numbered).
 */
final class FakeTarget implements Target, Runner {
    private final Predicate<FuzzInput> arm;
    private final Predicate<FuzzInput> fire;
    private final int delay;
    private final int crashEvery;
    private boolean armed;
    private int countdown = -1;
    private String crashed;
    private int boots;
    private long runs;
    /** The run's executions that armed it, and the one that fired first (the culprit), in the first boot. */
    final List<Long> armedAt = new ArrayList<>();
    long firedAt = -1;
    long crashedAt = -1;

    FakeTarget(Predicate<FuzzInput> arm, Predicate<FuzzInput> fire, int delay, boolean once) {
        this(arm, fire, delay, once ? 0 : 1);
    }

    /** {@code crashEvery}: boots 0, N, 2N... can crash (0: only boot 0). */
    FakeTarget(Predicate<FuzzInput> arm, Predicate<FuzzInput> fire, int delay, int crashEvery) {
        this.arm = arm;
        this.fire = fire;
        this.delay = delay;
        this.crashEvery = crashEvery;
    }

    @Override
    public synchronized void before(io.jrnic.conform.ConformCase c) {
        boots++;
        armed = false;
        countdown = -1;
        crashed = null;
    }

    @Override
    public synchronized String crashed() {
        return crashed;
    }

    @Override
    public synchronized Executor.Result run(Mutator.Plan plan, Recording rec) throws IOException {
        List<FuzzInput.Message> msgs = new ArrayList<>();
        for (Mutator.Spec s : plan.specs()) {
            msgs.add(new FuzzInput.Message(new byte[] {(byte) s.template(), (byte) s.edits().size()}, s.badCrc(), s.split()));
        }
        runs++;
        return exec(new FuzzInput(Role.RESPONDER, FuzzInput.copy(plan.setup()), plan.ping(), msgs), runs);
    }

    @Override
    public synchronized Executor.Result replay(FuzzInput in, Recording rec) throws IOException {
        return exec(in, -1);
    }

    private Executor.Result exec(FuzzInput in, long execution) throws CaseContext.UnreachableException {
        if (crashed != null) {
            return new Executor.Result(in, Observation.of(Observation.Kind.SILENT, "a dead connection manager"));
        }
        if (countdown > 0 && --countdown == 0) {
            crashed = "BUG: kernel NULL pointer dereference (fake, " + delay + " executions late)";
            if (boots == 0) {
                crashedAt = execution;
            }
        }
        boolean canCrash = boots == 0 || crashEvery > 0 && boots % crashEvery == 0;
        if (arm.test(in) && boots == 0 && execution > 0 && firedAt < 0) {
            armedAt.add(execution);
        }
        if (arm.test(in)) {
            armed = true;
        }
        if (canCrash && crashed == null && countdown < 0 && armed && fire.test(in)) {
            if (boots == 0) {
                firedAt = execution;
            }
            countdown = delay;
            if (delay == 0) {
                crashed = "BUG: kernel NULL pointer dereference (fake)";
                if (boots == 0) {
                    crashedAt = execution;
                }
            }
        }
        return new Executor.Result(in, Observation.of(Observation.Kind.TERMINATE, "fake"));
    }
}
