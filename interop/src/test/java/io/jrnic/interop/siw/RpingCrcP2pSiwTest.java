package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Matrix cases (a) and (b) on the PARAMS siw with CRC required and peer-to-peer mode. */
@SiwGuestTest(variant = GuestConfig.Variant.PARAMS, params = {"mpa_crc_required=1", "peer_to_peer=1"}, capture = "")
class RpingCrcP2pSiwTest {
    @Test
    void paramsBuildShowsRequestedSettings(SiwGuest guest, Path out) throws Exception {
        CaseResult r = new GuestBootCase("boot-params-crc-p2p", guest.config()).run(guest, null, out);
        assertTrue(r.passed(), r.toString());
    }

    @Test
    void rpingSiwToSiwWithCrcAndRtrDecodesCleanly(SiwGuest guest, Path out) throws Exception {
        CaseResult r = SiwMatrix.runOne(guest, new RpingGuestCase("rping-siw2siw-crc-p2p", guest.config(), 10, 4000),
                out);
        System.out.println("[siw] " + r);
        assertTrue(r.passed(), r.toString());
    }
}
