package io.jrnic.soft.mpa;

import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.util.Arrays;

/**
 * One side's MPA connection options (RFC 5044 section 7.1, RFC 6581 section 5). Immutable; defaults
 * interoperate with Linux siw: revision 2 with IRD/ORD words and peer-to-peer WRITE RTR, CRC not
 * required, no markers, MSS 1460 for MULPDU, siw's timers (Reply 10 s, Request 5 s).
 */
public final class MpaConfig {
    public static final MpaConfig DEFAULTS = builder().build();

    private final int revision;
    private final boolean crc;
    private final boolean markers;
    private final int ird;
    private final int ord;
    private final boolean peerToPeer;
    private final byte[] privateData;
    private final int mss;
    private final long firstFpduDelayMillis;
    private final long replyTimeoutMillis;
    private final long requestTimeoutMillis;
    private final int maxPrivateData;

    private MpaConfig(Builder b) {
        this.revision = b.revision;
        this.crc = b.crc;
        this.markers = b.markers;
        this.ird = b.ird;
        this.ord = b.ord;
        this.peerToPeer = b.peerToPeer;
        this.privateData = b.privateData.clone();
        this.mss = b.mss;
        this.firstFpduDelayMillis = b.firstFpduDelayMillis;
        this.replyTimeoutMillis = b.replyTimeoutMillis;
        this.requestTimeoutMillis = b.requestTimeoutMillis;
        this.maxPrivateData = b.maxPrivateData;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().revision(revision).crc(crc).markers(markers).ird(ird).ord(ord).peerToPeer(peerToPeer)
                .privateData(privateData).mss(mss).firstFpduDelayMillis(firstFpduDelayMillis)
                .replyTimeoutMillis(replyTimeoutMillis).requestTimeoutMillis(requestTimeoutMillis)
                .maxPrivateData(maxPrivateData);
    }

    public int revision() {
        return revision;
    }

    public boolean crc() {
        return crc;
    }

    public boolean markers() {
        return markers;
    }

    public int ird() {
        return ird;
    }

    public int ord() {
        return ord;
    }

    public boolean peerToPeer() {
        return peerToPeer;
    }

    public byte[] privateData() {
        return privateData.clone();
    }

    public int mss() {
        return mss;
    }

    public long firstFpduDelayMillis() {
        return firstFpduDelayMillis;
    }

    public long replyTimeoutMillis() {
        return replyTimeoutMillis;
    }

    public long requestTimeoutMillis() {
        return requestTimeoutMillis;
    }

    public int maxPrivateData() {
        return maxPrivateData;
    }

    @Override
    public String toString() {
        return "MpaConfig[rev " + revision + (crc ? " crc" : "") + (markers ? " markers" : "") + " ird " + ird
                + " ord " + ord + (peerToPeer ? " p2p" : "") + " pd " + privateData.length + "B mss " + mss + "]";
    }

    /** Mutable builder. */
    public static final class Builder {
        private int revision = MpaSetupFrame.REVISION_2;
        private boolean crc;
        private boolean markers;
        private int ird = 16;
        private int ord = 16;
        private boolean peerToPeer = true;
        private byte[] privateData = new byte[0];
        private int mss = 1460;
        private long firstFpduDelayMillis;
        private long replyTimeoutMillis = 10_000;
        private long requestTimeoutMillis = 5_000;
        private int maxPrivateData = MpaSetupFrame.MAX_PRIVATE_DATA;

        public Builder revision(int v) {
            if (v != MpaSetupFrame.REVISION_1 && v != MpaSetupFrame.REVISION_2) {
                throw new IllegalArgumentException("MPA revision 1 or 2: " + v);
            }
            revision = v;
            return this;
        }

        public Builder crc(boolean v) {
            crc = v;
            return this;
        }

        public Builder markers(boolean v) {
            markers = v;
            return this;
        }

        public Builder ird(int v) {
            if (v < 0 || v > MpaV2Words.MAX_VALUE) {
                throw new IllegalArgumentException("IRD 0..0x3FFF: " + v);
            }
            ird = v;
            return this;
        }

        public Builder ord(int v) {
            if (v < 0 || v > MpaV2Words.MAX_VALUE) {
                throw new IllegalArgumentException("ORD 0..0x3FFF: " + v);
            }
            ord = v;
            return this;
        }

        public Builder peerToPeer(boolean v) {
            peerToPeer = v;
            return this;
        }

        /** Application private data (at most 512 bytes minus the 4 IRD/ORD bytes in revision 2). */
        public Builder privateData(byte[] v) {
            privateData = Arrays.copyOf(v, v.length);
            return this;
        }

        public Builder mss(int v) {
            if (v < 64) {
                throw new IllegalArgumentException("MSS " + v);
            }
            mss = v;
            return this;
        }

        /** Initiator: pause between the Reply and the first FPDU (siw's responder race, siw notes). */
        public Builder firstFpduDelayMillis(long v) {
            firstFpduDelayMillis = Math.max(0, v);
            return this;
        }

        public Builder replyTimeoutMillis(long v) {
            replyTimeoutMillis = v;
            return this;
        }

        public Builder requestTimeoutMillis(long v) {
            requestTimeoutMillis = v;
            return this;
        }

        /** Largest PD_Length accepted from the peer (512 by RFC 5044; 256 to behave like siw). */
        public Builder maxPrivateData(int v) {
            maxPrivateData = v;
            return this;
        }

        public MpaConfig build() {
            int words = revision == MpaSetupFrame.REVISION_2 ? MpaV2Words.LENGTH : 0;
            if (privateData.length + words > MpaSetupFrame.MAX_PRIVATE_DATA) {
                throw new IllegalArgumentException("private data of " + privateData.length + " bytes over "
                        + (MpaSetupFrame.MAX_PRIVATE_DATA - words));
            }
            return new MpaConfig(this);
        }
    }
}
