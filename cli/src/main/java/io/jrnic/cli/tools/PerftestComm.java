package io.jrnic.cli.tools;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CqInit;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * perftest's out-of-band exchange in rdma_cm mode ("Data ex. method : rdma_cm"): a separate RC connection
 * to the same port, set up before the test connection, with one {@value PerftestDest#SIZE}-byte receive
 * posted at a time. Every exchange is one untagged Send each way, the client (connection initiator) first:
 * the client sends then receives, the server receives then sends; the receive is re-posted before sending.
 */
final class PerftestComm {
    /** perftest's VERSION for the Debian 4.5 package; sent as a 16-byte NUL-padded string. */
    static final String VERSION = "6.06";
    static final int VERSION_SIZE = 16;
    /** check_sys_data: page size (cycle buffer) and cache line size, 4 bytes big-endian each. */
    static final int CYCLE_BUFFER = 4096;
    static final int CACHE_LINE = 64;
    /** IBV_MTU_1024 as sprintf'd by check_mtu, sent as 2 bytes ("3" and NUL) to peers of version >= 5.31. */
    static final int MTU_ENUM_1024 = 3;

    private final CmSide side;
    private final boolean client;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final byte[] sendBuf = new byte[PerftestDest.SIZE];
    private final byte[] recvBuf = new byte[PerftestDest.SIZE];
    private final MemoryRegion sendMr;
    private final MemoryRegion recvMr;
    private QueuePair qp;
    private int received;

    PerftestComm(CmSide side, boolean client) {
        this.side = side;
        this.client = client;
        sendCq = side.dev.createCq(CqInit.of(4).context("comm-send"));
        recvCq = side.dev.createCq(CqInit.of(4).context("comm-recv"));
        sendMr = side.pd.register(sendBuf, Access.LOCAL_WRITE);
        recvMr = side.pd.register(recvBuf, Access.LOCAL_WRITE);
    }

    /** The exchange QP with its one receive posted (before connect or accept, as perftest). */
    QueuePair createQp() {
        qp = side.pd.createQp(QpInit.rc(sendCq, recvCq).maxSendWr(1).maxRecvWr(1).maxSge(1).signalAll(true));
        qp.postRecv(RecvWr.of(0, recvMr.sge()));
        return qp;
    }

    /** One exchange: sends {@code mine}, returns the peer's message, which must be exactly as long. */
    byte[] exchange(byte[] mine, String what) throws Exception {
        if (client) {
            send(mine, what);
            return receive(mine.length, what);
        }
        byte[] theirs = receive(mine.length, what);
        send(mine, what);
        return theirs;
    }

    private void send(byte[] msg, String what) throws Exception {
        System.arraycopy(msg, 0, sendBuf, 0, msg.length);
        qp.postSend(SendWr.send().id(1).local(sendMr.sge(0, msg.length)).signaled());
        side.await(sendCq, 1, "send " + what, null);
    }

    private byte[] receive(int length, String what) throws Exception {
        int[] got = {-1};
        side.await(recvCq, 1, "receive " + what, (Completion c) -> {
            if (c.opcode() != CompletionOpcode.RECV) {
                throw new IllegalStateException(what + ": expected a Send, got " + c.opcode());
            }
            got[0] = c.byteLength();
        });
        if (got[0] != length) {
            throw new IllegalStateException(what + ": expected " + length + " bytes, got " + got[0]
                    + " (perftest version or test type mismatch?)");
        }
        byte[] theirs = Arrays.copyOf(recvBuf, length);
        received++;
        qp.postRecv(RecvWr.of(received, recvMr.sge()));
        return theirs;
    }

    /** exchange_versions; returns the peer's version string. */
    String versions() throws Exception {
        byte[] v = Arrays.copyOf(VERSION.getBytes(StandardCharsets.US_ASCII), VERSION_SIZE);
        byte[] r = exchange(v, "version");
        int n = 0;
        while (n < r.length && r[n] != 0) {
            n++;
        }
        return new String(r, 0, n, StandardCharsets.US_ASCII);
    }

    /** check_sys_data (peer version >= 5.32): cycle buffer then cache line size, 4 bytes big-endian each. */
    void sysData() throws Exception {
        exchange(ByteBuffer.allocate(4).putInt(CYCLE_BUFFER).array(), "cycle buffer");
        exchange(ByteBuffer.allocate(4).putInt(CACHE_LINE).array(), "cache line size");
    }

    /** check_mtu: the MTU enum as a decimal string, 2 bytes (peer version >= 5.31). */
    void mtu() throws Exception {
        exchange(new byte[] {(byte) ('0' + MTU_ENUM_1024), 0}, "MTU");
    }

    /** ctx_hand_shake: one pingpong_dest each way. */
    PerftestDest handShake(PerftestDest mine) throws Exception {
        return PerftestDest.read(exchange(mine.toBytes(), "pingpong_dest"), 0);
    }

    /**
     * xchg_bw_reports (peer version >= 5.33, no report_per_port): size, iters (8 bytes each, big-endian),
     * bw_peak, bw_avg, msgRate_avg (IEEE doubles, big-endian), one exchange per field. Returns the peer's.
     */
    Perftest.BwReport bwReports(Perftest.BwReport mine) throws Exception {
        long size = ByteBuffer.wrap(exchange(be8(mine.size()), "report size")).getLong();
        long iters = ByteBuffer.wrap(exchange(be8(mine.iters()), "report iters")).getLong();
        double peak = ByteBuffer.wrap(exchange(be8(Double.doubleToRawLongBits(mine.bwPeak())), "report bw_peak")).getDouble();
        double avg = ByteBuffer.wrap(exchange(be8(Double.doubleToRawLongBits(mine.bwAvg())), "report bw_avg")).getDouble();
        double rate = ByteBuffer.wrap(exchange(be8(Double.doubleToRawLongBits(mine.msgRate())), "report msgRate")).getDouble();
        return new Perftest.BwReport(size, iters, peak, avg, rate);
    }

    private static byte[] be8(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN).putLong(v).array();
    }
}
