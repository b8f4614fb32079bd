package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.Direction;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.rdmap.RdmapOpcode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared pieces of the siw cases that need no guest: reading a captured Terminate, opcodes by name. */
class CaseSupportTest {
    private static FpduRecord terminate(String info) {
        return new FpduRecord(0, Direction.R2I, 7, 7, 0, 22, 0x4147, false, true, -1, -1, 2, 1, 0, 0, CrcStatus.OFF,
                info);
    }

    /** rping's teardown race (its CM thread meets the destroyed event channel) is not a failed run; other exits are. */
    @Test
    void anRpingServerFinishedWithExitZeroOrItsTeardownRaceOnly() {
        String end = "server DISCONNECT EVENT...\nwait for RDMA_READ_ADV state 10\n";
        assertTrue(CaseSupport.rpingServerFinished(new ExecResult("rping -s", 0, end, Duration.ZERO)));
        assertTrue(CaseSupport.rpingServerFinished(new ExecResult("rping -s", 255,
                end + "rdma_get_cm_event: Bad file descriptor\n", Duration.ZERO)));
        assertFalse(CaseSupport.rpingServerFinished(new ExecResult("rping -s", 255,
                "rdma_get_cm_event: Bad file descriptor\n", Duration.ZERO)), "no disconnect: the run did not end");
        assertFalse(CaseSupport.rpingServerFinished(new ExecResult("rping -s", 255, end + "cq completion failed status 5\n",
                Duration.ZERO)));
        assertFalse(CaseSupport.rpingServerFinished(new ExecResult("rping -s", 137, end, Duration.ZERO)));
    }

    @Test
    void theCapturedTerminateIsComparedWithThePeersResultLine() {
        FpduRecord t = terminate("Terminate DDP etype 1 code 0x00 (invalid STag) M D (siw layout)");
        assertEquals(new PeerResult.Terminated(1, 1, 0x00, "SIW"), CaseSupport.capturedTerminate(t));
        assertEquals(new PeerResult.Terminated(0, 2, 0xFF, "RFC"),
                CaseSupport.capturedTerminate(terminate("Terminate RDMAP etype 2 code 0xff (unspecified)")));
        assertNull(CaseSupport.capturedTerminate(terminate("Terminate")));

        List<String> failures = new ArrayList<>();
        ExecResult jr = new ExecResult("jrnic", 0, "terminate received layer=1 type=1 code=0x00 layout=SIW\n"
                + "RESULT terminate=1/1/0x00/SIW qp=ERROR completed=2/2 wc=1:RECV:SUCCESS,10:SEND:SUCCESS\n",
                Duration.ZERO);
        CaseSupport.expectReported(t, jr, failures);
        assertTrue(failures.isEmpty(), failures.toString());
        CaseSupport.expectReported(terminate("Terminate DDP etype 1 code 0x01 (base or bounds) (siw layout)"), jr,
                failures);
        assertEquals(1, failures.size());
        CaseSupport.expectReported(terminate("Terminate"), jr, failures);
        assertTrue(failures.get(1).startsWith("undecoded Terminate"));
        CaseSupport.expectReported(t, new ExecResult("jrnic", 0, "terminate received, in English only\n",
                Duration.ZERO), failures);
        assertTrue(failures.get(2).startsWith("jrnic printed no RESULT line"), failures.toString());
    }

    @Test
    void capturedFpdusAreMatchedByRdmapOpcode() {
        FpduRecord t = terminate("Terminate");
        assertTrue(t.is(RdmapOpcode.TERMINATE));
        assertEquals(RdmapOpcode.TERMINATE, t.rdmapOpcode());
        FpduRecord tiny = new FpduRecord(0, Direction.I2R, 1, 1, 0, 1, -1, false, false, -1, -1, -1, -1, -1, -1,
                CrcStatus.OFF, "");
        assertNull(tiny.rdmapOpcode(), "no control field");
        assertTrue(!tiny.is(RdmapOpcode.RDMA_WRITE), "opcode 0 is not read from a missing control field");
    }
}
