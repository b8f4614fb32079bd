package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.SiwCaptures;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checks the rping case applies, on the recorded siw-to-siw capture (CRC and peer-to-peer on). */
class CaptureReportTest {
    @Test
    void recordedSiwCrcP2pRpingIsCleanWithAllCrcsGood() throws Exception {
        Path pcap = SiwCaptures.file("rping-p2p-crc-siw2siw.pcap");
        CaptureReport r = CaptureReport.of(pcap);
        assertEquals(1, r.summary().mpaStreams());
        assertEquals(2, r.setups().size());
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        Map<CrcStatus, Integer> crc = r.crcCounts();
        assertEquals(Map.of(CrcStatus.GOOD, r.fpdus().size()), crc);
        assertTrue(r.tsharkDisagreement().isEmpty(), r.tsharkDisagreement());
        assertTrue(r.summaryLine().contains("0 violations"), r.summaryLine());
    }
}
