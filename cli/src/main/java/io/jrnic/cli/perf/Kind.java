package io.jrnic.cli.perf;

/**
 * Bandwidth (also message rate, at small sizes) posted in lists or per message, busy-polling latency, or blocking
 * latency on platform or virtual threads. Sent by ordinal on the control channel: new values go at the end.
 */
public enum Kind {
    /**
     * Bandwidth and message rate, batched: lists of {@link PerfCase#postList()} work requests per post call, one
     * signaled completion per {@link PerfCase#cqMod()} (ib_write_bw's {@code --post_list} and {@code --cq-mod}).
     */
    BW("bw"),
    /** Latency, busy-polling on both sides: RDMA polls memory or the CQ, TCP spins on non-blocking channels. */
    LAT("lat"),
    /** Latency, blocking on both sides: RDMA waits on the completion channel, TCP blocks in read. No WRITE row. */
    LAT_BLOCK("lat-block"),
    /**
     * As {@link #LAT_BLOCK}, every waiting thread (RDMA client and server, TCP client and echo) a virtual thread
     * (JDK 21+; on older JDKs the row says so, see {@link VirtualThreads}).
     */
    LAT_BLOCK_VT("lat-block-vt"),
    /** Bandwidth and message rate, per message: one work request per post call, each signaled. */
    BW_MSG("bw-msg");

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** LAT, LAT_BLOCK or LAT_BLOCK_VT: a ping-pong (or one READ at a time) timed per iteration. */
    public boolean latency() {
        return !bandwidth();
    }

    /** BW or BW_MSG: a stream of work requests, timed as a whole. */
    public boolean bandwidth() {
        return this == BW || this == BW_MSG;
    }

    /** LAT_BLOCK or LAT_BLOCK_VT: both sides block on their waits. */
    public boolean blocking() {
        return this == LAT_BLOCK || this == LAT_BLOCK_VT;
    }

    /** Whether the row's waiting threads are virtual threads. */
    public boolean virtualThreads() {
        return this == LAT_BLOCK_VT;
    }

    /** Whether {@code op} has a test of this kind (WRITE latency polls memory: it has no blocking form). */
    public boolean has(Op op) {
        return !blocking() || op != Op.WRITE;
    }
}
