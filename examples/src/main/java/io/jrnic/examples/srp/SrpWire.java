package io.jrnic.examples.srp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The block protocol's messages (big-endian), shared by the RDMA (SRP-style) and the TCP
 * transports. Login travels in MPA private data (or as the first TCP frame); commands and
 * responses are Sends.
 *
 * <pre>
 * LOGIN_REQ  magic "SRPJ" | u32 requested request limit | u32 max transfer bytes         (12)
 * LOGIN_RSP  magic "SRPJ" | u32 granted request limit   | u32 max transfer | u64 blocks  (20)
 * CMD        u8 type=1 | u8 op | u16 0 | u32 tag | u64 lba | u32 blocks
 *            | u32 STag | u64 TaggedOffset | u32 length                                   (36)
 * RSP        u8 type=2 | u8 status | u16 0 | u32 tag | i32 request-limit delta           (12)
 * </pre>
 */
public final class SrpWire {
    /** Bytes per block. */
    public static final int BLOCK = 4096;
    public static final int LOGIN_REQ = 12;
    public static final int LOGIN_RSP = 20;
    public static final int CMD = 36;
    public static final int RSP = 12;
    static final byte TYPE_CMD = 1;
    static final byte TYPE_RSP = 2;
    private static final int MAGIC = ByteBuffer.wrap("SRPJ".getBytes(StandardCharsets.US_ASCII)).getInt();

    /** Command operations. */
    public enum Op {
        READ, WRITE;

        static Op of(byte b) {
            return b == 0 ? READ : b == 1 ? WRITE : null;
        }
    }

    /** Response status (SCSI-like: GOOD, or why the command was not executed). */
    public static final byte GOOD = 0;
    /** LBA range outside the device. */
    public static final byte OUT_OF_RANGE = 1;
    /** Descriptor length does not match blocks * BLOCK, or above the max transfer, or bad op. */
    public static final byte BAD_DESCRIPTOR = 2;
    /** The device (file) failed. */
    public static final byte IO_ERROR = 3;
    /** The RDMA transfer to or from the initiator's buffer failed. */
    public static final byte TRANSFER_ERROR = 4;

    private SrpWire() {
    }

    /** Login request. */
    public record Login(int requestLimit, int maxTransfer) {
        public byte[] encode() {
            return ByteBuffer.allocate(LOGIN_REQ).putInt(MAGIC).putInt(requestLimit).putInt(maxTransfer).array();
        }

        /** @throws IllegalArgumentException when this is not a login request */
        public static Login decode(byte[] b) {
            ByteBuffer bb = check(b, LOGIN_REQ);
            return new Login(bb.getInt(), bb.getInt());
        }
    }

    /** Login response: what the target grants. */
    public record LoginAccept(int requestLimit, int maxTransfer, long blocks) {
        public byte[] encode() {
            return ByteBuffer.allocate(LOGIN_RSP).putInt(MAGIC).putInt(requestLimit).putInt(maxTransfer).putLong(blocks)
                    .array();
        }

        /** @throws IllegalArgumentException when this is not a login response */
        public static LoginAccept decode(byte[] b) {
            ByteBuffer bb = check(b, LOGIN_RSP);
            return new LoginAccept(bb.getInt(), bb.getInt(), bb.getLong());
        }
    }

    private static ByteBuffer check(byte[] b, int len) {
        if (b == null || b.length < len) {
            throw new IllegalArgumentException("login: " + (b == null ? 0 : b.length) + " bytes, need " + len);
        }
        ByteBuffer bb = ByteBuffer.wrap(b);
        if (bb.getInt() != MAGIC) {
            throw new IllegalArgumentException("login: bad magic");
        }
        return bb;
    }

    /** Writes a command at {@code bb}'s position. */
    static void putCommand(ByteBuffer bb, Op op, int tag, long lba, int blocks, int stag, long to, int length) {
        bb.put(TYPE_CMD).put((byte) op.ordinal()).putShort((short) 0).putInt(tag).putLong(lba).putInt(blocks)
                .putInt(stag).putLong(to).putInt(length);
    }

    /** A decoded command (absolute reads from {@code bb} at {@code at}). */
    record Command(Op op, int tag, long lba, int blocks, int stag, long to, int length) {
        static Command read(ByteBuffer bb, int at) {
            if (bb.get(at) != TYPE_CMD) {
                return null;
            }
            return new Command(Op.of(bb.get(at + 1)), bb.getInt(at + 4), bb.getLong(at + 8), bb.getInt(at + 16),
                    bb.getInt(at + 20), bb.getLong(at + 24), bb.getInt(at + 32));
        }

        /** Validation against the device and the login; GOOD when the command may run. */
        byte check(long deviceBlocks, int maxTransfer) {
            if (op == null || blocks < 1 || length != (long) blocks * BLOCK || length > maxTransfer) {
                return BAD_DESCRIPTOR;
            }
            if (lba < 0 || lba > deviceBlocks - blocks) {
                return OUT_OF_RANGE;
            }
            return GOOD;
        }
    }

    static void putResponse(ByteBuffer bb, byte status, int tag, int delta) {
        bb.put(TYPE_RSP).put(status).putShort((short) 0).putInt(tag).putInt(delta);
    }
}
