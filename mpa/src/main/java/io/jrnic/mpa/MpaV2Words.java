package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * The two 16-bit words that open the private data of an MPA revision 2 set-up frame with H
 * set (RFC 6581 section 5): IRD word then ORD word.
 *
 * <pre>
 * IRD word: bit 15 P2P (peer-to-peer mode), bit 14 zero-length SEND usable as RTR, bits 13..0 IRD
 * ORD word: bit 15 zero-length RDMA WRITE as RTR, bit 14 zero-length RDMA READ as RTR, bits 13..0 ORD
 * </pre>
 *
 * @param ird inbound RDMA Read queue depth, 0..0x3FFF
 * @param ord outbound RDMA Reads in flight, 0..0x3FFF
 */
public record MpaV2Words(int ird, int ord, boolean p2p, boolean sendRtr, boolean writeRtr, boolean readRtr) {
    public static final int LENGTH = 4;
    public static final int MAX_VALUE = 0x3FFF;
    public static final int P2P_FLAG = 0x8000;
    public static final int SEND_RTR_FLAG = 0x4000;
    public static final int WRITE_RTR_FLAG = 0x8000;
    public static final int READ_RTR_FLAG = 0x4000;

    public MpaV2Words {
        if (ird < 0 || ird > MAX_VALUE || ord < 0 || ord > MAX_VALUE) {
            throw new IllegalArgumentException("IRD/ORD must be 0..0x3FFF: " + ird + "/" + ord);
        }
    }

    /** Words without P2P or RTR flags. */
    public static MpaV2Words of(int ird, int ord) {
        return new MpaV2Words(ird, ord, false, false, false, false);
    }

    public int irdWord() {
        return ird | (p2p ? P2P_FLAG : 0) | (sendRtr ? SEND_RTR_FLAG : 0);
    }

    public int ordWord() {
        return ord | (writeRtr ? WRITE_RTR_FLAG : 0) | (readRtr ? READ_RTR_FLAG : 0);
    }

    public static MpaV2Words fromWords(int irdWord, int ordWord) {
        return new MpaV2Words(irdWord & MAX_VALUE, ordWord & MAX_VALUE, (irdWord & P2P_FLAG) != 0,
                (irdWord & SEND_RTR_FLAG) != 0, (ordWord & WRITE_RTR_FLAG) != 0, (ordWord & READ_RTR_FLAG) != 0);
    }

    /** Reads both words at absolute {@code index}. */
    public static MpaV2Words read(ByteBuf buf, int index) {
        return fromWords(buf.getUnsignedShort(index), buf.getUnsignedShort(index + 2));
    }

    public void write(ByteBuf out) {
        out.writeShort(irdWord()).writeShort(ordWord());
    }

    /** True when the given RTR type is flagged (NONE: false). */
    public boolean offers(RtrType type) {
        return switch (type) {
            case SEND -> sendRtr;
            case WRITE -> writeRtr;
            case READ -> readRtr;
            case NONE -> false;
        };
    }

    /** The number of RTR flags set. */
    public int rtrCount() {
        return (sendRtr ? 1 : 0) + (writeRtr ? 1 : 0) + (readRtr ? 1 : 0);
    }

    /** A copy with the given values and flags for one RTR type (NONE: no RTR flag). */
    public static MpaV2Words withRtr(int ird, int ord, boolean p2p, RtrType rtr) {
        return new MpaV2Words(ird, ord, p2p, rtr == RtrType.SEND, rtr == RtrType.WRITE, rtr == RtrType.READ);
    }
}
