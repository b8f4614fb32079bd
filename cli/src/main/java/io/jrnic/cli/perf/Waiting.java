package io.jrnic.cli.perf;

/**
 * What a loop waits for, for a {@link Deadline}'s timeout message: one per loop, its numbers set per message, and
 * formatted only when a wait times out. A latency or bandwidth loop that built the string on each idle allocated and
 * formatted on the path it measures (the RDMA rows only: the TCP loops wait for constants).
 */
final class Waiting {
    private final String before;
    private final String between;
    private final String after;
    private long a;
    private long b;

    /** "{@code before} a {@code after}". */
    Waiting(String before, String after) {
        this(before, null, after);
    }

    /** "{@code before} a {@code between} b {@code after}" ({@code between} null: b left out). */
    Waiting(String before, String between, String after) {
        this.before = before;
        this.between = between;
        this.after = after;
    }

    Waiting at(long a) {
        this.a = a;
        return this;
    }

    Waiting at(long a, long b) {
        this.a = a;
        this.b = b;
        return this;
    }

    @Override
    public String toString() {
        return between == null ? before + a + after : before + a + between + b + after;
    }
}
