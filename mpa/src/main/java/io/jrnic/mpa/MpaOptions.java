package io.jrnic.mpa;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable connection set-up options for {@link MpaInitiator} and {@link MpaResponder}.
 * Defaults interoperate with Linux siw: revision 2 (RFC 6581), CRC wanted, no markers,
 * IRD/ORD 16/16 raised up to 128, relaxed IRD/ORD adjustment, no peer-to-peer mode, the RFC 5044
 * timing rule enforced (no bytes accepted behind the peer's set-up frame).
 */
public final class MpaOptions {
    private final int revision;
    private final CrcMode crc;
    private final boolean markersRx;
    private final int ird;
    private final int ord;
    private final int maxIrd;
    private final boolean relaxedIrdOrd;
    private final boolean p2p;
    private final List<RtrType> rtrTypes;
    private final byte[] privateData;
    private final int maxPrivateData;
    private final boolean strictTiming;
    private final Duration timeout;

    private MpaOptions(Builder b) {
        revision = b.revision;
        crc = b.crc;
        markersRx = b.markersRx;
        ird = b.ird;
        ord = b.ord;
        maxIrd = b.maxIrd;
        relaxedIrdOrd = b.relaxedIrdOrd;
        p2p = b.p2p;
        rtrTypes = b.rtrTypes;
        privateData = b.privateData.clone();
        maxPrivateData = b.maxPrivateData;
        strictTiming = b.strictTiming;
        timeout = b.timeout;
    }

    public static MpaOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** 1 (RFC 5044) or 2 (RFC 6581, with H and the IRD/ORD words). */
    public int revision() {
        return revision;
    }

    public CrcMode crc() {
        return crc;
    }

    /** M: we want markers in what we receive. */
    public boolean markersRx() {
        return markersRx;
    }

    public int ird() {
        return ird;
    }

    public int ord() {
        return ord;
    }

    /** The highest IRD the relaxed adjustment may raise ours to. */
    public int maxIrd() {
        return maxIrd;
    }

    /** RFC 6581 / siw "relaxed": lower our ORD to the peer's IRD, raise our IRD to its ORD. */
    public boolean relaxedIrdOrd() {
        return relaxedIrdOrd;
    }

    /** Peer-to-peer mode: request it (initiator) or accept it (responder). */
    public boolean p2p() {
        return p2p;
    }

    /** RTR types offered (initiator) or accepted in order of preference (responder). */
    public List<RtrType> rtrTypes() {
        return rtrTypes;
    }

    /** Application private data for our Request (initiator) or default Reply (responder). */
    public byte[] privateData() {
        return privateData.clone();
    }

    /** Cap on the PD_Length we send (512 by RFC 5044; 256 keeps siw alive). */
    public int maxPrivateData() {
        return maxPrivateData;
    }

    /**
     * Largest PD_Length accepted in the peer's frame: RFC 5044 section 7.1 allows 512 whatever our
     * own sending cap is, so at least 512 (more only when the sending cap is set higher).
     */
    public int receivePrivateDataLimit() {
        return Math.max(MpaSetupFrame.MAX_PRIVATE_DATA, maxPrivateData);
    }

    /**
     * RFC 5044 section 7.1.1 timing rule (default true): the initiator sends no FPDU before it has
     * received the Reply, the responder none before the initiator's first FPDU, so bytes behind the
     * peer's set-up frame in the same read fail the set-up with BYTES_AFTER_SETUP_FRAME (LLP 0x04).
     * False is the leniency option: such bytes are left for the FPDU decoder.
     */
    public boolean strictTiming() {
        return strictTiming;
    }

    /** The set-up timeout to arm, or null for the role's default (10 s initiator, 5 s responder). */
    public Duration timeout() {
        return timeout;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.revision = revision;
        b.crc = crc;
        b.markersRx = markersRx;
        b.ird = ird;
        b.ord = ord;
        b.maxIrd = maxIrd;
        b.relaxedIrdOrd = relaxedIrdOrd;
        b.p2p = p2p;
        b.rtrTypes = rtrTypes;
        b.privateData = privateData.clone();
        b.maxPrivateData = maxPrivateData;
        b.strictTiming = strictTiming;
        b.timeout = timeout;
        return b;
    }

    public static final class Builder {
        private int revision = MpaSetupFrame.REVISION_2;
        private CrcMode crc = CrcMode.WANTED;
        private boolean markersRx;
        private int ird = 16;
        private int ord = 16;
        private int maxIrd = 128;
        private boolean relaxedIrdOrd = true;
        private boolean p2p;
        private List<RtrType> rtrTypes = List.of(RtrType.WRITE, RtrType.READ, RtrType.SEND);
        private byte[] privateData = new byte[0];
        private int maxPrivateData = MpaSetupFrame.MAX_PRIVATE_DATA;
        private boolean strictTiming = true;
        private Duration timeout;

        private Builder() {
        }

        public Builder revision(int v) {
            revision = v;
            return this;
        }

        public Builder crc(CrcMode v) {
            crc = Objects.requireNonNull(v);
            return this;
        }

        public Builder markersRx(boolean v) {
            markersRx = v;
            return this;
        }

        public Builder ird(int v) {
            ird = v;
            return this;
        }

        public Builder ord(int v) {
            ord = v;
            return this;
        }

        public Builder maxIrd(int v) {
            maxIrd = v;
            return this;
        }

        public Builder relaxedIrdOrd(boolean v) {
            relaxedIrdOrd = v;
            return this;
        }

        public Builder p2p(boolean v) {
            p2p = v;
            return this;
        }

        public Builder rtrTypes(RtrType... v) {
            rtrTypes = List.of(v);
            return this;
        }

        public Builder privateData(byte[] v) {
            privateData = Objects.requireNonNull(v).clone();
            return this;
        }

        public Builder maxPrivateData(int v) {
            maxPrivateData = v;
            return this;
        }

        public Builder strictTiming(boolean v) {
            strictTiming = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = v;
            return this;
        }

        /** @throws IllegalArgumentException for an inconsistent combination */
        public MpaOptions build() {
            check(revision == 1 || revision == 2, "revision must be 1 or 2");
            check(ord >= 0 && ord <= MpaV2Words.MAX_VALUE, "ORD must be 0..0x3FFF");
            check(maxIrd >= 0 && maxIrd <= MpaV2Words.MAX_VALUE, "max IRD must be 0..0x3FFF");
            check(ird >= 0 && ird <= maxIrd, "IRD must be 0..maxIrd");
            check(!p2p || revision == 2, "peer-to-peer mode needs revision 2");
            check(rtrTypes.stream().allMatch(t -> t != RtrType.NONE), "NONE is not an RTR type");
            check(!p2p || !rtrTypes.isEmpty(), "peer-to-peer mode needs at least one RTR type");
            check(maxPrivateData >= 0 && maxPrivateData <= 0xFFFF, "maxPrivateData must be 0..65535");
            check(privateData.length + (revision == 2 ? MpaV2Words.LENGTH : 0) <= maxPrivateData,
                    "private data over maxPrivateData");
            check(timeout == null || !timeout.isNegative(), "negative timeout");
            return new MpaOptions(this);
        }

        private static void check(boolean ok, String message) {
            if (!ok) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
