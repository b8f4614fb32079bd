package io.jrnic.nvmf.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * RDMA CM private data of the NVMe/RDMA transport binding (NVMe over Fabrics 1.1, RDMA binding,
 * "RDMA_CM_REQUEST / RDMA_CM_ACCEPT / RDMA_CM_REJECT Private Data"): little-endian, 32 octets for
 * a request and an accept. Over iWARP it travels as the MPA Request/Reply private data.
 */
public final class CmPrivateData {
    /** Size of the request and accept records. */
    public static final int SIZE = 32;
    /** Record format 0 (the only one defined). */
    public static final int RECFMT_1_0 = 0;

    /** Reject status values (RDMA_CM_REJECT STS). */
    public static final int INVALID_LENGTH = 0x01;
    public static final int INVALID_RECFMT = 0x02;
    public static final int INVALID_QID = 0x03;
    public static final int INVALID_HSQSIZE = 0x04;
    public static final int INVALID_HRQSIZE = 0x05;
    public static final int NO_RESOURCES = 0x06;
    public static final int INVALID_IRD = 0x07;
    public static final int INVALID_ORD = 0x08;

    private CmPrivateData() {
    }

    /**
     * Host to controller (RDMA_CM_REQUEST): octets 0-1 RECFMT, 2-3 QID, 4-5 HRQSIZE (host receive
     * queue entries), 6-7 HSQSIZE (host send queue size, 0's based, equal to the Connect SQSIZE),
     * 8-9 CNTLID (sent by newer Linux hosts, otherwise reserved), 10-31 reserved.
     */
    public record Request(int recfmt, int qid, int hrqsize, int hsqsize, int cntlid) {
        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort(0, (short) recfmt).putShort(2, (short) qid).putShort(4, (short) hrqsize)
                    .putShort(6, (short) hsqsize).putShort(8, (short) cntlid);
            return b.array();
        }

        /** @throws RejectException with {@link #INVALID_LENGTH} or {@link #INVALID_RECFMT} */
        public static Request decode(byte[] pd) {
            if (pd == null || pd.length < SIZE) {
                throw new RejectException(INVALID_LENGTH, "private data of " + (pd == null ? 0 : pd.length)
                        + " octets, the binding's request has " + SIZE);
            }
            ByteBuffer b = ByteBuffer.wrap(pd).order(ByteOrder.LITTLE_ENDIAN);
            Request r = new Request(u16(b, 0), u16(b, 2), u16(b, 4), u16(b, 6), u16(b, 8));
            if (r.recfmt != RECFMT_1_0) {
                throw new RejectException(INVALID_RECFMT, "record format " + r.recfmt);
            }
            return r;
        }
    }

    /** Controller to host (RDMA_CM_ACCEPT): octets 0-1 RECFMT, 2-3 CRQSIZE, 4-31 reserved. */
    public record Accept(int recfmt, int crqsize) {
        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort(0, (short) recfmt).putShort(2, (short) crqsize);
            return b.array();
        }

        /** @throws IllegalArgumentException shorter than 4 octets or another record format */
        public static Accept decode(byte[] pd) {
            if (pd == null || pd.length < 4) {
                throw new IllegalArgumentException("accept private data too short: " + (pd == null ? 0 : pd.length));
            }
            ByteBuffer b = ByteBuffer.wrap(pd).order(ByteOrder.LITTLE_ENDIAN);
            Accept a = new Accept(u16(b, 0), u16(b, 2));
            if (a.recfmt != RECFMT_1_0) {
                throw new IllegalArgumentException("accept record format " + a.recfmt);
            }
            return a;
        }
    }

    /** Controller to host (RDMA_CM_REJECT): octets 0-1 RECFMT, 2-3 STS. */
    public record Reject(int recfmt, int status) {
        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort(0, (short) recfmt).putShort(2, (short) status);
            return b.array();
        }

        /** @throws IllegalArgumentException shorter than 4 octets */
        public static Reject decode(byte[] pd) {
            if (pd == null || pd.length < 4) {
                throw new IllegalArgumentException("reject private data too short: " + (pd == null ? 0 : pd.length));
            }
            ByteBuffer b = ByteBuffer.wrap(pd).order(ByteOrder.LITTLE_ENDIAN);
            return new Reject(u16(b, 0), u16(b, 2));
        }
    }

    /** A request the controller must reject, with the binding's status. */
    public static final class RejectException extends IllegalArgumentException {
        private final int status;

        public RejectException(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }

        public byte[] privateData() {
            return new Reject(RECFMT_1_0, status).encode();
        }
    }

    private static int u16(ByteBuffer b, int at) {
        return b.getShort(at) & 0xFFFF;
    }
}
