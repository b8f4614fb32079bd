package io.jrnic.cli.perf;

/**
 * A bandwidth measurement: {@code iterations} messages of {@code size} bytes in {@code nanos}.
 * MB is decimal (10^6 bytes); Mpps is 10^6 messages per second.
 */
public record BwFigure(long iterations, int size, long nanos) {
    public BwFigure {
        if (iterations < 0 || size < 0 || nanos <= 0) {
            throw new IllegalArgumentException("iterations " + iterations + ", size " + size + ", nanos " + nanos);
        }
    }

    public double megabytesPerSecond() {
        return (double) iterations * size * 1e3 / nanos;   // bytes/ns * 1e9 / 1e6
    }

    public double megaMessagesPerSecond() {
        return iterations * 1e3 / nanos;
    }
}
