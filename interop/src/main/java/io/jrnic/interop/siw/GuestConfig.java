package io.jrnic.interop.siw;

import java.time.Duration;
import java.util.List;

/**
 * How to boot a siw guest.
 *
 * @param variant     which siw.ko the guest loads
 * @param siwParams   module parameters for the {@link Variant#PARAMS} build, "name=value"
 *                    (mpa_crc_required, mpa_crc_strict, peer_to_peer, mpa_version, relaxed_ird_negotiation)
 * @param guestCidr   the guest's eth0 address
 * @param hostCidr    the address of the tap device on the host side (inside the harness's namespace)
 * @param loMtu       MTU of the guest's lo, which carries siw-to-siw traffic inside the guest
 * @param memoryMb    guest memory
 * @param bootTimeout how long to wait for "siw ready"
 */
public record GuestConfig(Variant variant, List<String> siwParams, String guestCidr, String hostCidr, int loMtu,
                          int memoryMb, Duration bootTimeout) {

    /** The two siw builds in the image. */
    public enum Variant {
        /** siw as Debian's source has it: CRC off unless asked, MPA rev 2, no peer-to-peer. */
        STOCK,
        /** siw with its connection settings turned into module parameters (see build-image.sh). */
        PARAMS;

        public String dir() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public GuestConfig {
        siwParams = List.copyOf(siwParams);
        for (String p : siwParams) {
            if (!p.matches("[a-z_0-9]+=[A-Za-z0-9]+")) {
                throw new IllegalArgumentException("siw parameter must be name=value: " + p);
            }
        }
        if (variant == Variant.STOCK && !siwParams.isEmpty()) {
            throw new IllegalArgumentException("the stock siw has no module parameters: " + siwParams);
        }
    }

    /** Stock siw, guest 192.168.77.2/24, host side 192.168.77.1/24, lo MTU 1500, 1 GiB. */
    public static GuestConfig defaults() {
        return new GuestConfig(Variant.STOCK, List.of(), "192.168.77.2/24", "192.168.77.1/24", 1500, 1024,
                Duration.ofSeconds(120));
    }

    /** The PARAMS build with the given module parameters. */
    public static GuestConfig params(String... siwParams) {
        GuestConfig d = defaults();
        return new GuestConfig(Variant.PARAMS, List.of(siwParams), d.guestCidr, d.hostCidr, d.loMtu, d.memoryMb,
                d.bootTimeout);
    }

    public String guestAddress() {
        return guestCidr.substring(0, guestCidr.indexOf('/'));
    }

    public String hostAddress() {
        return hostCidr.substring(0, hostCidr.indexOf('/'));
    }

    /** The kernel command line the guest's /init reads (see interop/siw-guest/init). */
    String kernelCommandLine() {
        StringBuilder b = new StringBuilder("console=ttyS0 panic=-1 oops=panic loglevel=4");
        b.append(" jrnic.ip=").append(guestCidr).append(" jrnic.siw=").append(variant.dir())
                .append(" jrnic.lomtu=").append(loMtu);
        for (String p : siwParams) {
            b.append(" jrnic.siwopt=").append(p);
        }
        return b.toString();
    }
}
