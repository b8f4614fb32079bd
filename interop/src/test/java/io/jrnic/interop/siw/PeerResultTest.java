package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PeerResultTest {
    @Test
    void theResultLineRoundTripsAndTheLastOneCounts() {
        PeerResult r = new PeerResult(new PeerResult.Terminated(1, 1, 0x00, "SIW"), "ERROR", 4, 4,
                List.of(new PeerResult.Wc(1, "RECV", "SUCCESS"), new PeerResult.Wc(2, "RECV", "WR_FLUSH_ERROR")));
        assertEquals("RESULT terminate=1/1/0x00/SIW qp=ERROR completed=4/4 wc=1:RECV:SUCCESS,2:RECV:WR_FLUSH_ERROR",
                r.format());
        String output = "client buffer addr=0x10 rkey=0x00000100 size=64\nRESULT terminate=none qp=IDLE completed=0/1 wc=\n"
                + "completion id=1 RECV SUCCESS\n" + r.format() + "\n";
        PeerResult back = PeerResult.parse(output).orElseThrow();
        assertEquals(r, back);
        assertTrue(back.has("RECV", "WR_FLUSH_ERROR"));
        assertFalse(back.has("SEND", "SUCCESS"));
        assertTrue(back.allCompleted());
    }

    @Test
    void noTerminateNoCompletionsAndMalformedLines() {
        PeerResult none = PeerResult.parse("RESULT terminate=none qp=IDLE completed=0/1 wc=").orElseThrow();
        assertNull(none.terminate());
        assertEquals(List.of(), none.completions());
        assertFalse(none.allCompleted());
        assertTrue(PeerResult.parse("no result here\n").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> PeerResult.parse("RESULT qp=ERROR"));
        assertThrows(IllegalArgumentException.class, () -> PeerResult.parse("RESULT qp=ERROR completed=1/1 what=1"));
    }
}
