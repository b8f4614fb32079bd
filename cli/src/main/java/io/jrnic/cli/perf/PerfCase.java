package io.jrnic.cli.perf;

/**
 * One row of the run: an operation, a kind of test, a message size and an iteration count; for {@link Kind#BW}
 * also how work requests are posted: {@code postList} per post call, one signaled per {@code cqMod}
 * ({@link Kind#BW_MSG} and latency rows: 1 and 1).
 */
public record PerfCase(Op op, Kind kind, int size, long iterations, int postList, int cqMod) {
    /** The batched rows' defaults: the window's quarter (64 / 4), what the loop did before the options existed. */
    public static final int DEFAULT_POST_LIST = 16;
    public static final int DEFAULT_CQ_MOD = 16;

    public PerfCase {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1: " + size);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1: " + iterations);
        }
        if (postList < 1 || cqMod < 1) {
            throw new IllegalArgumentException("post list and CQ moderation must be >= 1: " + postList + ", " + cqMod);
        }
        if (kind != Kind.BW && (postList != 1 || cqMod != 1)) {
            throw new IllegalArgumentException(kind.label() + " posts one work request at a time, each signaled");
        }
    }

    /** With the default posting of its kind ({@link #DEFAULT_POST_LIST}/{@link #DEFAULT_CQ_MOD} for BW, else 1/1). */
    public PerfCase(Op op, Kind kind, int size, long iterations) {
        this(op, kind, size, iterations, kind == Kind.BW ? DEFAULT_POST_LIST : 1, kind == Kind.BW ? DEFAULT_CQ_MOD : 1);
    }

    /** The same row with {@code n} iterations. */
    public PerfCase withIterations(long n) {
        return new PerfCase(op, kind, size, n, postList, cqMod);
    }

    /** e.g. "write bw". */
    public String name() {
        return op.label() + " " + kind.label();
    }
}
