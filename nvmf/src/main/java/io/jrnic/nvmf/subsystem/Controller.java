package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.wire.Fabrics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One controller of the dynamic model: the association of one host's admin queue and its I/O
 * queues. Holds the properties (CAP, VS, CC, CSTS; NVMe base 1.4 section 3.1), the features, the
 * held Asynchronous Event Requests and the keep-alive timer (section 7.12). Poller thread only.
 */
final class Controller {
    /** CAP: MQES (15:0, 0's based), CQR (16), TO (31:24, 500 ms units), CSS NVM (bit 37), MPSMIN/MAX 0 (4 KiB). */
    static long cap(int queueDepth) {
        return (queueDepth - 1) | 1L << 16 | 20L << 24 | 1L << 37;
    }

    static final int CC_EN = 1;
    static final int CSTS_RDY = 1;
    static final int CSTS_CFS = 1 << 1;
    static final int CSTS_SHST_COMPLETE = 2 << 2;

    private final NvmfTarget target;
    private final int cntlid;
    private final TargetQueue admin;
    private final String hostnqn;
    private final byte[] hostId;
    private final Map<Integer, TargetQueue> ioQueues = new TreeMap<>();
    private final List<Integer> heldAers = new ArrayList<>();
    private long katoMillis;
    private long lastKeepAlive;
    private int cc;
    private int csts;
    /** Number of Queues feature: I/O SQs and CQs allocated (0's based), or -1 before Set Features. */
    private int queuesAllocated = -1;
    private int asyncEventConfig;
    private int volatileWriteCache = 1;
    private boolean gone;
    /** Admin and Fabrics commands seen, by name ("Identify CNS 01h"), for the teardown event. */
    private final Map<String, Integer> seen = new TreeMap<>();
    /** The SMART / Health Information log's counters (log page 02h), counted by {@link #read} and {@link #wrote}. */
    private long readCommands;
    private long writeCommands;
    private long blocksRead;
    private long blocksWritten;

    Controller(NvmfTarget target, int cntlid, TargetQueue admin, Fabrics.ConnectData data, int kato) {
        this.target = target;
        this.cntlid = cntlid;
        this.admin = admin;
        this.hostnqn = data.hostnqn();
        this.hostId = data.hostId();
        this.katoMillis = Integer.toUnsignedLong(kato);
        this.lastKeepAlive = System.nanoTime();
    }

    /** A Read of {@code nlb} blocks completed (the SMART log's Data Units Read and Host Read Commands). */
    void read(long nlb) {
        readCommands++;
        blocksRead += nlb;
    }

    /** A Write of {@code nlb} blocks completed (Data Units Written, Host Write Commands). */
    void wrote(long nlb) {
        writeCommands++;
        blocksWritten += nlb;
    }

    /** The SMART / Health Information log (02h) of this controller's counters. */
    ByteBuffer smartLog() {
        return IdentifyData.smartLog(units(blocksRead), units(blocksWritten), readCommands, writeCommands);
    }

    /** Data units of the SMART log: thousands of 512-octet units, rounded up. */
    private long units(long blocks) {
        long bytes = blocks * target.namespace().blockSize();
        return (bytes / 512 + 999) / 1000;
    }

    int cntlid() {
        return cntlid;
    }

    String hostnqn() {
        return hostnqn;
    }

    byte[] hostId() {
        return hostId;
    }

    NvmfTarget target() {
        return target;
    }

    boolean isReady() {
        return (csts & CSTS_RDY) != 0;
    }

    int cc() {
        return cc;
    }

    int csts() {
        return csts;
    }

    /** Property Set of CC: enable sets CSTS.RDY, disable clears it, a shutdown request flushes and completes. */
    void setCc(int value) {
        int old = cc;
        cc = value;
        if ((value & CC_EN) != 0 && (old & CC_EN) == 0) {
            // CC.IOSQES 19:16 = 6, CC.IOCQES 23:20 = 4, CC.MPS 10:7 = 0 (4 KiB), CC.CSS 6:4 = 0 (NVM)
            boolean valid = ((value >>> 16) & 0xF) == 6 && ((value >>> 20) & 0xF) == 4 && ((value >>> 7) & 0xF) == 0
                    && ((value >>> 4) & 7) == 0;
            csts = valid ? CSTS_RDY : CSTS_CFS;
        } else if ((value & CC_EN) == 0 && (old & CC_EN) != 0) {
            csts = 0; // controller reset: not ready; the host reconnects its I/O queues
            for (TargetQueue q : List.copyOf(ioQueues.values())) {
                q.teardown("controller reset (CC.EN cleared)");
            }
        }
        if (((value >>> 14) & 3) != 0) { // CC.SHN: normal or abrupt shutdown
            try {
                target.namespace().flush();
            } catch (java.io.IOException e) {
                target.event("flush at shutdown failed: " + e);
            }
            csts = (csts & ~(3 << 2)) | CSTS_SHST_COMPLETE;
        }
    }

    long katoMillis() {
        return katoMillis;
    }

    void katoMillis(long v) {
        katoMillis = v;
        lastKeepAlive = System.nanoTime();
    }

    void keepAlive() {
        lastKeepAlive = System.nanoTime();
    }

    /**
     * Keep Alive Timer expiry (NVMe base 1.4 section 7.12): the association is torn down when neither a
     * Keep Alive nor any other command arrived for KATO plus a grace of half of it (a host may send its
     * Keep Alive every KATO exactly, so the two timers race without one).
     */
    void checkKeepAlive(long now) {
        long limit = TimeUnit.MILLISECONDS.toNanos(katoMillis + katoMillis / 2);
        if (katoMillis > 0 && !gone && now - lastKeepAlive > limit) {
            teardown("keep-alive timeout (" + katoMillis + " ms, no Keep Alive or command for "
                    + TimeUnit.NANOSECONDS.toMillis(now - lastKeepAlive) + " ms)");
        }
    }

    int queuesAllocated() {
        return queuesAllocated >= 0 ? queuesAllocated : target.config().maxIoQueues() - 1;
    }

    /** Set Features Number of Queues: allocates min(asked, max) of each; returns DW0 (NCQA 31:16, NSQA 15:0). */
    int allocateQueues(int nsqr, int ncqr) {
        int max = target.config().maxIoQueues() - 1;
        int n = Math.min(Math.min(nsqr, ncqr), max);
        queuesAllocated = n;
        return n << 16 | n;
    }

    int asyncEventConfig() {
        return asyncEventConfig;
    }

    void asyncEventConfig(int v) {
        asyncEventConfig = v;
    }

    int volatileWriteCache() {
        return volatileWriteCache;
    }

    void volatileWriteCache(int v) {
        volatileWriteCache = v & 1;
    }

    /** Holds an AER (no event is ever reported); false when AERL+1 are already held. */
    boolean holdAer(int cid) {
        if (heldAers.size() >= NvmfTarget.AER_LIMIT) {
            return false;
        }
        heldAers.add(cid);
        return true;
    }

    /** Adds an I/O queue; false when the qid is taken. */
    boolean addIoQueue(TargetQueue q) {
        return ioQueues.putIfAbsent(q.qid(), q) == null;
    }

    void queueGone(TargetQueue q) {
        if (q == admin) {
            teardown("admin queue gone");
        } else {
            ioQueues.remove(q.qid(), q);
        }
    }

    void saw(String command) {
        if (seen.size() < 64) {
            seen.merge(command, 1, Integer::sum);
        }
    }

    boolean isGone() {
        return gone;
    }

    /** Ends the association: every queue's connection is closed. */
    void teardown(String why) {
        if (gone) {
            return;
        }
        gone = true;
        target.removeController(this, why + "; admin commands seen: " + seen + ", reads " + readCommands
                + ", writes " + writeCommands);
        for (TargetQueue q : List.copyOf(ioQueues.values())) {
            q.teardown(why);
        }
        admin.teardown(why);
    }
}
