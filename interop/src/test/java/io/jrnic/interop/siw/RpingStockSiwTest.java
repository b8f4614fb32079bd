package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Matrix case (b) on stock siw: rping siw to siw in the guest, capture checked (CRC off). */
@SiwGuestTest(capture = "")
class RpingStockSiwTest {
    @Test
    void rpingSiwToSiwDecodesCleanlyWithCrcOff(SiwGuest guest, Path out) throws Exception {
        CaseResult r = SiwMatrix.runOne(guest, new RpingGuestCase("rping-siw2siw-stock", guest.config(), 10, 4000), out);
        System.out.println("[siw] " + r);
        assertTrue(r.passed(), r.toString());
    }
}
