package io.jrnic.cli.perf;

/** One row of the run: an operation, a kind of test, a message size and an iteration count. */
public record PerfCase(Op op, Kind kind, int size, long iterations) {
    public PerfCase {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1: " + size);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1: " + iterations);
        }
    }

    /** e.g. "write bw". */
    public String name() {
        return op.label() + " " + kind.label();
    }
}
