package io.jrnic.conform.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.conform.Role;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MutatorTest {
    private static final SetupFrame SEED = SetupFrame.v2(MpaSetupFrame.Kind.REPLY, false, MpaV2Words.of(1, 1), 0);

    private static List<String> plans(long seed, int n) {
        Mutator m = new Mutator(seed, Role.RESPONDER);
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Mutator.Plan p = m.next(SEED);
            l.add(java.util.HexFormat.of().formatHex(p.setup().encode()) + " " + p.ping() + " " + p.specs());
        }
        return l;
    }

    @Test
    void theSameSeedGivesTheSamePlans() {
        assertEquals(plans(7, 200), plans(7, 200));
        assertNotEquals(plans(7, 50), plans(8, 50));
    }

    @Test
    void planMutationsCoverEverySetupFieldAndTheReplyCrashLengths() {
        Set<String> what = new HashSet<>();
        Set<Integer> pdLengths = new HashSet<>();
        Mutator m = new Mutator(1, Role.RESPONDER);
        for (int i = 0; i < 2000; i++) {
            Mutator.Plan p = m.next(SEED);
            what.addAll(List.of(p.what().split(",")));
            pdLengths.add(p.setup().privateData.length);
        }
        assertTrue(what.containsAll(List.of("flags", "revision", "private-data", "pd-length", "ird-ord", "key", "message")), what.toString());
        assertTrue(pdLengths.contains(257) && pdLengths.contains(0), pdLengths.toString());
        assertEquals(4, SEED.privateData.length, "the seed never changes");
    }
}
