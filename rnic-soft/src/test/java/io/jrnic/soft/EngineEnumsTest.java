package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.soft.engine.SqOpcode;
import io.jrnic.soft.engine.Status;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.WrOpcode;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Every constant of each verbs/engine enum pair maps to its namesake, and the maps are one to one. */
class EngineEnumsTest {
    @Test
    void everyWrOpcodeMapsToTheSqOpcodeOfTheSameName() {
        EnumSet<SqOpcode> hit = EnumSet.noneOf(SqOpcode.class);
        for (WrOpcode op : WrOpcode.values()) {
            SqOpcode s = EngineEnums.opcode(op);
            assertEquals(op.name(), s.name());
            hit.add(s);
        }
        assertEquals(EnumSet.allOf(SqOpcode.class), hit, "an engine opcode no verbs opcode reaches");
    }

    @Test
    void everyEngineStatusMapsToTheCompletionStatusOfTheSameName() {
        for (Status s : Status.values()) {
            assertEquals(s.name(), EngineEnums.status(s).name());
        }
        // the verbs side has one more: FATAL_ERROR, which the soft engine never reports
        assertEquals(Status.values().length + 1, CompletionStatus.values().length);
    }

    @Test
    void everySetUpFailureMapsToTheConnectionManagerEventOfTheSameName() {
        for (io.jrnic.soft.mpa.CmFailure f : io.jrnic.soft.mpa.CmFailure.values()) {
            assertEquals(f.name(), EngineEnums.cmEvent(f).name());
        }
    }

    @Test
    void rtrTypesMapBothWaysAndNoneIsNoRtr() {
        for (io.jrnic.verbs.RtrType t : io.jrnic.verbs.RtrType.values()) {
            io.jrnic.mpa.RtrType m = EngineEnums.rtr(t);
            assertEquals(t.name(), m.name());
            assertEquals(t, EngineEnums.rtr(m));
        }
        assertEquals(null, EngineEnums.rtr(io.jrnic.mpa.RtrType.NONE));
    }
}
