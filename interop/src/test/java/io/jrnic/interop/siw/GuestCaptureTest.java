package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How a capture's completeness is read from tcpdump's exit report (a case trusts a capture with 0 drops only). */
class GuestCaptureTest {
    @Test
    void dropsAreReadFromTcpdumpsReport() {
        String report = "tcpdump: listening on jrsiw0, link-type EN10MB (Ethernet), snapshot length 65600 bytes\n"
                + "6411 packets captured\n6448 packets received by filter\n37 packets dropped by kernel\n";
        assertEquals(37, GuestCapture.droppedIn(report));
        assertEquals(1, GuestCapture.droppedIn("2 packets captured\n1 packet dropped by kernel\n"));
        assertEquals(0, GuestCapture.droppedIn("9 packets captured\n9 packets received by filter\n0 packets dropped by kernel"));
    }

    @Test
    void aReportWithoutTheCountIsUnknownNotComplete() {
        // tcpdump killed before it could report, or never started: -1, which no case takes for 0
        assertEquals(-1, GuestCapture.droppedIn(""));
        assertEquals(-1, GuestCapture.droppedIn("tcpdump: jrsiw0: No such device exists\n"));
    }
}
