package io.jrnic.conform.wire;

import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An MPA Request or Reply (RFC 5044 section 7.1, RFC 6581 section 5) as raw fields, any of which a case
 * may set to an illegal value: the key, the flag octet (M 0x80, C 0x40, R 0x20, H 0x10, reserved 0x0F),
 * the revision, the PD_Length field (which may disagree with the private data actually sent) and the
 * private data (with H, its first 4 octets are the IRD and ORD words).
 */
public final class SetupFrame {
    public static final int M = MpaSetupFrame.FLAG_MARKERS;
    public static final int C = MpaSetupFrame.FLAG_CRC;
    public static final int R = MpaSetupFrame.FLAG_REJECT;
    public static final int H = MpaSetupFrame.FLAG_ENHANCED;

    public byte[] key;
    public int flags;
    public int revision;
    public int pdLength;
    public byte[] privateData;

    private SetupFrame(byte[] key, int flags, int revision, byte[] privateData) {
        this.key = key;
        this.flags = flags;
        this.revision = revision;
        this.privateData = privateData;
        this.pdLength = privateData.length;
    }

    /** Revision 2 with H and the IRD/ORD words (RFC 6581), CRC as asked, then {@code appData} octets. */
    public static SetupFrame v2(MpaSetupFrame.Kind kind, boolean crc, MpaV2Words words, int appData) {
        ByteBuffer pd = ByteBuffer.allocate(MpaV2Words.LENGTH + appData);
        pd.putShort((short) words.irdWord()).putShort((short) words.ordWord());
        for (int i = 0; i < appData; i++) {
            pd.put((byte) ('a' + i % 26));
        }
        return new SetupFrame(kind.key(), H | (crc ? C : 0), 2, pd.array());
    }

    /** Revision 1 (RFC 5044), no IRD/ORD words. */
    public static SetupFrame v1(MpaSetupFrame.Kind kind, boolean crc, int appData) {
        byte[] pd = new byte[appData];
        Arrays.fill(pd, (byte) 'x');
        return new SetupFrame(kind.key(), crc ? C : 0, 1, pd);
    }

    /** Private data of {@code total} octets: the IRD/ORD words kept when H is set, filler after them. */
    public SetupFrame privateDataLength(int total) {
        byte[] pd = new byte[total];
        Arrays.fill(pd, (byte) 'p');
        if ((flags & H) != 0 && privateData.length >= MpaV2Words.LENGTH && total >= MpaV2Words.LENGTH) {
            System.arraycopy(privateData, 0, pd, 0, MpaV2Words.LENGTH);
        }
        privateData = pd;
        pdLength = total;
        return this;
    }

    /** The IRD/ORD words (with H and at least 4 octets of private data), else null. */
    public MpaV2Words words() {
        if ((flags & H) == 0 || privateData.length < MpaV2Words.LENGTH) {
            return null;
        }
        return MpaV2Words.fromWords(((privateData[0] & 0xFF) << 8) | (privateData[1] & 0xFF),
                ((privateData[2] & 0xFF) << 8) | (privateData[3] & 0xFF));
    }

    /** Replaces the IRD/ORD words. */
    public SetupFrame words(MpaV2Words w) {
        privateData[0] = (byte) (w.irdWord() >> 8);
        privateData[1] = (byte) w.irdWord();
        privateData[2] = (byte) (w.ordWord() >> 8);
        privateData[3] = (byte) w.ordWord();
        return this;
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(MpaSetupFrame.HEADER_LENGTH + privateData.length);
        b.put(key, 0, Math.min(key.length, MpaSetupFrame.KEY_LENGTH));
        b.position(MpaSetupFrame.FLAGS_OFFSET);
        b.put((byte) flags).put((byte) revision).putShort((short) pdLength).put(privateData);
        return b.array();
    }

    /** Parses a frame read by {@link Session#readSetupFrame} (at least the 20 header octets). */
    public static SetupFrame parse(byte[] raw) {
        SetupFrame f = new SetupFrame(Arrays.copyOf(raw, MpaSetupFrame.KEY_LENGTH), raw[16] & 0xFF, raw[17] & 0xFF,
                Arrays.copyOfRange(raw, MpaSetupFrame.HEADER_LENGTH, raw.length));
        f.pdLength = ((raw[18] & 0xFF) << 8) | (raw[19] & 0xFF);
        return f;
    }

    public boolean keyIs(MpaSetupFrame.Kind kind) {
        return Arrays.equals(key, kind.key());
    }

    @Override
    public String toString() {
        return String.format("%s flags=0x%02X rev=%d PD_Length=%d words=%s",
                new String(key, java.nio.charset.StandardCharsets.US_ASCII), flags, revision, pdLength, words());
    }
}
