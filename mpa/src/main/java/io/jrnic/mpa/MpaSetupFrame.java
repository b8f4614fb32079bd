package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An MPA Request or Reply frame (RFC 5044 section 7.1; RFC 6581 section 5 for revision 2).
 *
 * <pre>
 * offset 0  Key (16 ASCII bytes)
 * offset 16 flags: M 0x80, C 0x40, R 0x20, H 0x10 (RFC 6581), 0x0F reserved
 * offset 17 Rev
 * offset 18 PD_Length (16 bits)
 * offset 20 private data: [IRD word, ORD word when Rev 2 and H] application private data
 * </pre>
 *
 * Immutable. {@link #privateData()} is the application part only; the revision 2 words are
 * {@link #v2Words()}. Reserved flag bits are sent as set in the builder (0 by default, as the
 * RFC requires) and ignored on receive apart from being exposed by {@link #reservedFlags()}.
 * The R and H bits are kept as received whatever the kind and revision; the words are parsed
 * only from a revision 2 frame with H set.
 */
public final class MpaSetupFrame {
    public enum Kind {
        REQUEST("MPA ID Req Frame"),
        REPLY("MPA ID Rep Frame");

        private final byte[] key;

        Kind(String key) {
            this.key = key.getBytes(StandardCharsets.US_ASCII);
        }

        /** A copy of the 16 key bytes. */
        public byte[] key() {
            return key.clone();
        }
    }

    public static final int KEY_OFFSET = 0;
    public static final int KEY_LENGTH = 16;
    public static final int FLAGS_OFFSET = 16;
    public static final int REVISION_OFFSET = 17;
    public static final int PD_LENGTH_OFFSET = 18;
    public static final int HEADER_LENGTH = 20;

    public static final int FLAG_MARKERS = 0x80;
    public static final int FLAG_CRC = 0x40;
    public static final int FLAG_REJECT = 0x20;
    public static final int FLAG_ENHANCED = 0x10;
    public static final int RESERVED_FLAGS_MASK = 0x0F;

    public static final int REVISION_1 = 1;
    public static final int REVISION_2 = 2;
    /** RFC 5044 section 7.1: private data is at most 512 bytes. */
    public static final int MAX_PRIVATE_DATA = 512;
    /** Linux siw's cap (252 for the application with revision 2 words). */
    public static final int SIW_MAX_PRIVATE_DATA = 256;

    private final Kind kind;
    private final boolean markers;
    private final boolean crc;
    private final boolean reject;
    private final boolean enhanced;
    private final int reservedFlags;
    private final int revision;
    private final MpaV2Words v2Words;
    private final byte[] privateData;

    private MpaSetupFrame(Builder b) {
        this.kind = Objects.requireNonNull(b.kind, "kind");
        this.markers = b.markers;
        this.crc = b.crc;
        this.reject = b.reject;
        this.enhanced = b.enhanced;
        this.reservedFlags = b.reservedFlags;
        this.revision = b.revision;
        this.v2Words = b.v2Words;
        this.privateData = b.privateData.clone();
    }

    public static Builder builder(Kind kind) {
        return new Builder(kind);
    }

    public Kind kind() {
        return kind;
    }

    /** M: the sender wants markers in the data it receives. */
    public boolean markers() {
        return markers;
    }

    /** C: the sender wants CRCs. */
    public boolean crc() {
        return crc;
    }

    /** R: the Reply rejects the connection. */
    public boolean reject() {
        return reject;
    }

    /** H: enhanced connection establishment (RFC 6581). */
    public boolean enhanced() {
        return enhanced;
    }

    /** The four reserved flag bits (0x0F of the flags byte) as received. */
    public int reservedFlags() {
        return reservedFlags;
    }

    public int revision() {
        return revision;
    }

    /** The IRD/ORD words, or null when the frame carries none (not revision 2 with H). */
    public MpaV2Words v2Words() {
        return v2Words;
    }

    /** The application private data (without the revision 2 words), a copy. */
    public byte[] privateData() {
        return privateData.clone();
    }

    /** PD_Length: words plus application private data. */
    public int privateDataLength() {
        return (v2Words == null ? 0 : MpaV2Words.LENGTH) + privateData.length;
    }

    public int encodedLength() {
        return HEADER_LENGTH + privateDataLength();
    }

    /** The flags byte as sent. */
    public int flags() {
        return (markers ? FLAG_MARKERS : 0) | (crc ? FLAG_CRC : 0) | (reject ? FLAG_REJECT : 0)
                | (enhanced ? FLAG_ENHANCED : 0) | reservedFlags;
    }

    public void encode(ByteBuf out) {
        out.ensureWritable(encodedLength());
        out.writeBytes(kind.key);
        out.writeByte(flags());
        out.writeByte(revision);
        out.writeShort(privateDataLength());
        if (v2Words != null) {
            v2Words.write(out);
        }
        out.writeBytes(privateData);
    }

    /**
     * Decodes one frame of the expected kind from the readable bytes of {@code in}.
     *
     * @return the frame, with exactly its bytes consumed; or null when more bytes are needed
     *     (nothing consumed)
     * @throws MpaException INVALID_SETUP_FRAME (0x04) with reason INVALID_KEY (checked on the
     *     bytes available, so a wrong key fails before 16 bytes arrive), INVALID_REVISION (not
     *     1 or 2), PRIVATE_DATA_TOO_LONG (PD_Length over {@code maxPrivateData}, checked as soon
     *     as the header is in) or INVALID_LENGTH (revision 2 with H and PD_Length below 4);
     *     nothing consumed
     */
    public static MpaSetupFrame decode(ByteBuf in, Kind expected, int maxPrivateData) {
        int start = in.readerIndex();
        int available = in.readableBytes();
        int keyBytes = Math.min(available, KEY_LENGTH);
        for (int i = 0; i < keyBytes; i++) {
            if (in.getByte(start + i) != expected.key[i]) {
                throw new MpaException(LlpError.INVALID_SETUP_FRAME, MpaFailure.Reason.INVALID_KEY,
                        "key is not '" + new String(expected.key, StandardCharsets.US_ASCII) + "' (byte " + i + ")");
            }
        }
        if (available < HEADER_LENGTH) {
            return null;
        }
        int flags = in.getUnsignedByte(start + FLAGS_OFFSET);
        int revision = in.getUnsignedByte(start + REVISION_OFFSET);
        int pdLength = in.getUnsignedShort(start + PD_LENGTH_OFFSET);
        if (revision != REVISION_1 && revision != REVISION_2) {
            throw new MpaException(LlpError.INVALID_SETUP_FRAME, MpaFailure.Reason.INVALID_REVISION,
                    "unsupported MPA revision " + revision);
        }
        if (pdLength > maxPrivateData) {
            throw new MpaException(LlpError.INVALID_SETUP_FRAME, MpaFailure.Reason.PRIVATE_DATA_TOO_LONG,
                    "PD_Length " + pdLength + " over the cap of " + maxPrivateData);
        }
        boolean enhanced = (flags & FLAG_ENHANCED) != 0;
        boolean words = revision == REVISION_2 && enhanced;
        if (words && pdLength < MpaV2Words.LENGTH) {
            throw new MpaException(LlpError.INVALID_SETUP_FRAME, MpaFailure.Reason.INVALID_LENGTH,
                    "revision 2 with H needs the IRD/ORD words, PD_Length is " + pdLength);
        }
        if (available < HEADER_LENGTH + pdLength) {
            return null;
        }
        Builder b = builder(expected).revision(revision)
                .markers((flags & FLAG_MARKERS) != 0).crc((flags & FLAG_CRC) != 0)
                .reject((flags & FLAG_REJECT) != 0).enhanced(enhanced).reservedFlags(flags & RESERVED_FLAGS_MASK);
        int pd = start + HEADER_LENGTH;
        if (words) {
            b.v2Words(MpaV2Words.read(in, pd));
            pd += MpaV2Words.LENGTH;
        }
        byte[] app = new byte[start + HEADER_LENGTH + pdLength - pd];
        in.getBytes(pd, app);
        in.skipBytes(HEADER_LENGTH + pdLength);
        return b.privateData(app).build();
    }

    /** A builder initialised with this frame's fields. */
    public Builder toBuilder() {
        return builder(kind).markers(markers).crc(crc).reject(reject).enhanced(enhanced)
                .reservedFlags(reservedFlags).revision(revision).v2Words(v2Words).privateData(privateData);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaSetupFrame f && f.kind == kind && f.flags() == flags() && f.revision == revision
                && Objects.equals(f.v2Words, v2Words) && Arrays.equals(f.privateData, privateData);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, flags(), revision, v2Words) * 31 + Arrays.hashCode(privateData);
    }

    @Override
    public String toString() {
        return "MpaSetupFrame[" + kind + " rev " + revision + (markers ? " M" : "") + (crc ? " C" : "")
                + (reject ? " R" : "") + (enhanced ? " H" : "")
                + (reservedFlags != 0 ? " rsvd=0x" + Integer.toHexString(reservedFlags) : "")
                + (v2Words != null ? " " + v2Words : "") + " pd=" + privateData.length + "B]";
    }

    public static final class Builder {
        private final Kind kind;
        private boolean markers;
        private boolean crc;
        private boolean reject;
        private boolean enhanced;
        private int reservedFlags;
        private int revision = REVISION_2;
        private MpaV2Words v2Words;
        private byte[] privateData = new byte[0];

        private Builder(Kind kind) {
            this.kind = kind;
        }

        public Builder markers(boolean v) {
            markers = v;
            return this;
        }

        public Builder crc(boolean v) {
            crc = v;
            return this;
        }

        public Builder reject(boolean v) {
            reject = v;
            return this;
        }

        public Builder enhanced(boolean v) {
            enhanced = v;
            return this;
        }

        /** Reserved bits to send (0x0F mask); only for testing a peer's "ignore on receive". */
        public Builder reservedFlags(int v) {
            if ((v & ~RESERVED_FLAGS_MASK) != 0) {
                throw new IllegalArgumentException("reserved flags are 0x0F only: 0x" + Integer.toHexString(v));
            }
            reservedFlags = v;
            return this;
        }

        public Builder revision(int v) {
            if (v < 0 || v > 255) {
                throw new IllegalArgumentException("revision is one byte: " + v);
            }
            revision = v;
            return this;
        }

        /** The revision 2 words; also sets H when non-null. */
        public Builder v2Words(MpaV2Words v) {
            v2Words = v;
            if (v != null) {
                enhanced = true;
            }
            return this;
        }

        public Builder privateData(byte[] v) {
            privateData = Objects.requireNonNull(v, "privateData").clone();
            return this;
        }

        /**
         * @throws IllegalArgumentException words without revision 2, revision 2 with H but no
         *     words, or PD_Length over 65535
         */
        public MpaSetupFrame build() {
            if (v2Words != null && revision != REVISION_2) {
                throw new IllegalArgumentException("IRD/ORD words need revision 2");
            }
            if (revision == REVISION_2 && enhanced && v2Words == null) {
                throw new IllegalArgumentException("revision 2 with H must carry the IRD/ORD words");
            }
            if (privateData.length + (v2Words == null ? 0 : MpaV2Words.LENGTH) > 0xFFFF) {
                throw new IllegalArgumentException("PD_Length is 16 bits");
            }
            return new MpaSetupFrame(this);
        }
    }
}
