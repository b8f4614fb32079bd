package io.jrnic.cli.perf;

/**
 * Bandwidth (also message rate, at small sizes), busy-polling latency or blocking latency. Sent by ordinal on the
 * control channel: new values go at the end.
 */
public enum Kind {
    /** Bandwidth and message rate. */
    BW("bw"),
    /** Latency, busy-polling on both sides: RDMA polls memory or the CQ, TCP spins on non-blocking channels. */
    LAT("lat"),
    /** Latency, blocking on both sides: RDMA waits on the completion channel, TCP blocks in read. No WRITE row. */
    LAT_BLOCK("lat-block");

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** LAT or LAT_BLOCK: a ping-pong (or one READ at a time) timed per iteration. */
    public boolean latency() {
        return this != BW;
    }

    /** Whether {@code op} has a test of this kind (WRITE latency polls memory: it has no blocking form). */
    public boolean has(Op op) {
        return this != LAT_BLOCK || op != Op.WRITE;
    }
}
