package io.jrnic.conform.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.Role;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzzer's crash signal and culprit search against {@link FakeTarget} (in the JVM, no network): the crash
 * surfaces executions after the input that caused it, as a kernel worker's would.
 */
class CulpritSearchTest {
    /** siw 6.1's Reply crash class: more than 256 octets of private data. */
    private static final Predicate<FuzzInput> LONG_PD = in -> in.setup().privateData.length > 256;
    private static final Predicate<FuzzInput> ANY = in -> true;
    private static final Predicate<FuzzInput> REVISION_0 = in -> in.setup().revision == 0;

    @TempDir
    Path out;
    private final StringWriter log = new StringWriter();

    private Fuzzer fuzzer(FakeTarget t, boolean fresh, int minimize) {
        return fuzzer(t, fresh, CulpritSearch.Options.defaults().withMinimize(minimize).withSettle(0));
    }

    private Fuzzer fuzzer(FakeTarget t, boolean fresh, CulpritSearch.Options options) {
        ConformOptions o = ConformOptions.initiator(new InetSocketAddress("127.0.0.1", 1));
        return new Fuzzer(o, Role.RESPONDER, t, out, new PrintWriter(log), () -> t).searching(options, fresh);
    }

    @Test
    void aCrashThatComesBackOneTimeInTwoIsFoundWhenEachReplayIsRepeated() throws Exception {
        FakeTarget t = new FakeTarget(ANY, LONG_PD, 2, 2);
        Fuzzer.Stats s = fuzzer(t, true, CulpritSearch.Options.defaults().withSettle(0).withRepeat(2))
                .run(1, 500, Duration.ofSeconds(60), 1);
        CulpritSearch.Result r = s.findings().get(0).result();
        assertEquals(CulpritSearch.Verdict.EXECUTION, r.verdict(), log.toString());
        assertEquals(t.firedAt, r.reproducer().steps().get(0).execution(), log.toString());
        // the two executions after it twice each (boots 1-4), then it: boot 5 lives, boot 6 crashes
        assertEquals(6, r.trials(), log.toString());
    }

    @Test
    void aDelayedCrashIsPinnedOnTheExecutionThatCausedItNotTheLast() throws Exception {
        FakeTarget t = new FakeTarget(ANY, LONG_PD, 3, false);
        Fuzzer.Stats s = fuzzer(t, true, 16).run(1, 500, Duration.ofSeconds(60), 1);
        assertEquals(1, s.findings().size(), log.toString());
        Fuzzer.Finding f = s.findings().get(0);
        assertTrue(t.firedAt > 0, log.toString());
        assertEquals(t.firedAt + 3, f.execution(), "the signal comes 3 executions late\n" + log);
        assertTrue(f.how().startsWith("BUG: kernel NULL pointer dereference"), f.how());
        // the execution during which the signal came is not an outcome
        assertEquals(s.executions() - 1, s.outcomes().values().stream().mapToLong(Long::longValue).sum(), s.outcomes().toString());
        CulpritSearch.Result r = f.result();
        assertEquals(CulpritSearch.Verdict.EXECUTION, r.verdict(), r.summary() + "\n" + log);
        assertEquals(t.firedAt, r.reproducer().steps().get(0).execution(), log.toString());
        assertTrue(r.summary().startsWith("reproduced by execution " + t.firedAt + " (minimised to the Reply: "), r.summary());
        assertTrue(r.minimalDifference().matches("the Reply: \\d+ octets of private data \\(valid 4\\)"), r.minimalDifference());
        // the minimal reproducer, replayed on a fresh target, crashes it (with the valid executions it names)
        Reproducer min = Reproducer.read(out.resolve("finding-1/minimal.repro"));
        assertEquals(3, min.follow());
        assertNotNull(fuzzer(t, true, 0).trial(min, out.resolve("check.pcap")), log.toString());
        assertTrue(Files.exists(out.resolve("finding-1/window.repro")));
        assertTrue(Files.exists(out.resolve("finding-1/reproducer.repro")));
    }

    @Test
    void aCrashThatNeedsTwoExecutionsIsReproducedByTheSequenceFromTheFirst() throws Exception {
        FakeTarget t = new FakeTarget(REVISION_0, LONG_PD, 0, false);
        Fuzzer.Stats s = fuzzer(t, true, 0).run(1, 500, Duration.ofSeconds(60), 1);
        assertEquals(1, s.findings().size(), log.toString());
        CulpritSearch.Result r = s.findings().get(0).result();
        assertEquals(CulpritSearch.Verdict.SEQUENCE, r.verdict(), r.summary() + "\n" + log);
        long lastArm = t.armedAt.get(t.armedAt.size() - 1);
        assertEquals("reproduced by the sequence " + lastArm + ".." + t.crashedAt, r.summary(), log.toString());
        assertNotEquals(lastArm, t.crashedAt);
        // the sequence file replays as a sequence and crashes a fresh target
        Reproducer seq = Reproducer.read(out.resolve("finding-1/sequence.repro"));
        assertTrue(seq.isSequence());
        assertEquals(seq.text(), Reproducer.parse(seq.text()).text());
        assertNotNull(fuzzer(t, true, 0).trial(seq, out.resolve("check.pcap")));
    }

    @Test
    void aCrashThatDoesNotComeBackIsNotReproducedAndTheWindowIsKept() throws Exception {
        FakeTarget t = new FakeTarget(ANY, LONG_PD, 2, true);
        Fuzzer.Stats s = fuzzer(t, true, 16).run(1, 500, Duration.ofSeconds(60), 1);
        CulpritSearch.Result r = s.findings().get(0).result();
        assertEquals(CulpritSearch.Verdict.NOT_REPRODUCED, r.verdict(), log.toString());
        assertNull(r.reproducer());
        // 40 replays: the newest executions alone, then the window as a sequence
        assertTrue(r.summary().matches("not reproduced \\(neither executions \\d+\\.\\.\\d+ alone nor the window as a "
                + "sequence crashed a fresh target; the window 1\\.\\.\\d+ is kept\\)"), r.summary());
        assertEquals(40, r.trials());
        assertEquals(out.resolve("finding-1/window.repro"), r.file());
        Reproducer w = Reproducer.read(r.file());
        assertEquals(s.findings().get(0).execution(), w.steps().get(w.steps().size() - 1).execution());
        try (Stream<Path> files = Files.list(out.resolve("finding-1"))) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().matches("(reproducer|minimal|sequence)\\.repro")));
        }
    }

    @Test
    void afterAFindingTheRunGoesOnOnAFreshTargetWithAFreshWindow() throws Exception {
        FakeTarget t = new FakeTarget(ANY, LONG_PD, 1, false);
        Fuzzer.Stats s = fuzzer(t, true, 0).run(1, 2000, Duration.ofSeconds(60), 2);
        assertEquals(2, s.findings().size(), log.toString());
        Fuzzer.Finding first = s.findings().get(0);
        Fuzzer.Finding second = s.findings().get(1);
        assertEquals(CulpritSearch.Verdict.EXECUTION, second.result().verdict(), log.toString());
        long culprit = second.result().reproducer().steps().get(0).execution();
        assertTrue(culprit > first.execution() && culprit < second.execution(), log.toString());
        Reproducer window = Reproducer.read(out.resolve("finding-2/window.repro"));
        assertEquals(first.execution() + 1, window.steps().get(0).execution());
    }

    @Test
    void withoutABeforeHookNothingIsBlamedAndTheRunStops() throws Exception {
        FakeTarget t = new FakeTarget(ANY, LONG_PD, 1, false);
        Fuzzer.Stats s = fuzzer(t, false, 0).run(1, 500, Duration.ofSeconds(60), 3);
        assertEquals(1, s.findings().size());
        CulpritSearch.Result r = s.findings().get(0).result();
        assertEquals(CulpritSearch.Verdict.NOT_REPRODUCED, r.verdict());
        assertEquals(0, r.trials());
        assertTrue(r.summary().startsWith("not reproduced (not searched: no --hook-before"), r.summary());
    }

    @Test
    void aSequenceReproducerSurvivesItsTextForm() {
        FuzzInput a = new Fuzzer(ConformOptions.initiator(new InetSocketAddress("127.0.0.1", 1)), Role.RESPONDER,
                io.jrnic.conform.Target.NONE, out, new PrintWriter(log), () -> null).valid();
        Reproducer r = new Reproducer(java.util.List.of(new Reproducer.Step(4, a), new Reproducer.Step(9,
                a.withMessages(java.util.List.of(new FuzzInput.Message(new byte[] {1, 2}, true, 1)), false))), 2);
        Reproducer back = Reproducer.parse(r.text());
        assertEquals("the sequence 4..9", back.label());
        assertEquals(2, back.follow());
        assertEquals(r.text(), back.text());
        // a reproducer of the earlier, one-execution form still reads
        Reproducer old = Reproducer.parse(a.text());
        assertEquals(1, old.steps().size());
        assertEquals(0, old.follow());
    }
}
