package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GuestConfigTest {
    @Test
    void kernelCommandLineCarriesAddressVariantAndEachParameter() {
        GuestConfig c = GuestConfig.params("mpa_crc_required=1", "peer_to_peer=1");
        assertEquals("console=ttyS0 panic=-1 oops=panic loglevel=4 jrnic.ip=192.168.77.2/24 jrnic.siw=params"
                + " jrnic.lomtu=1500 jrnic.siwopt=mpa_crc_required=1 jrnic.siwopt=peer_to_peer=1", c.kernelCommandLine());
        assertEquals("192.168.77.2", c.guestAddress());
        assertEquals("192.168.77.1", c.hostAddress());
    }

    @Test
    void stockBuildTakesNoParameters() {
        GuestConfig d = GuestConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> new GuestConfig(GuestConfig.Variant.STOCK,
                java.util.List.of("mpa_crc_required=1"), d.guestCidr(), d.hostCidr(), 1500, 1024, d.bootTimeout()));
    }

    @Test
    void parameterThatCouldInjectIntoTheCommandLineIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> GuestConfig.params("peer_to_peer=1 init=/bin/sh"));
    }

    @Test
    void configsWithSameSettingsAreEqualSoTheGuestIsShared() {
        assertEquals(GuestConfig.params("peer_to_peer=1"), GuestConfig.params("peer_to_peer=1"));
    }
}
