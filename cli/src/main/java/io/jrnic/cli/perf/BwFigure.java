package io.jrnic.cli.perf;

/**
 * A bandwidth measurement: {@code iterations} messages of {@code size} bytes in {@code nanos}, and the CPU the run
 * used ({@link CpuClock.Use}; null when not read). MB is decimal (10^6 bytes); Mpps is 10^6 messages per second.
 */
public record BwFigure(long iterations, int size, long nanos, CpuClock.Use cpu) {
    public BwFigure {
        if (iterations < 0 || size < 0 || nanos <= 0) {
            throw new IllegalArgumentException("iterations " + iterations + ", size " + size + ", nanos " + nanos);
        }
    }

    public BwFigure(long iterations, int size, long nanos) {
        this(iterations, size, nanos, null);
    }

    public double megabytesPerSecond() {
        return (double) iterations * size * 1e3 / nanos;   // bytes/ns * 1e9 / 1e6
    }

    public double megaMessagesPerSecond() {
        return iterations * 1e3 / nanos;
    }

    /** Cores this process kept busy during the run (NaN: not read). */
    public double processCores() {
        return cpu == null ? Double.NaN : cpu.processCores();
    }

    /** Cores the whole machine kept busy during the run (NaN: not read). */
    public double hostCores() {
        return cpu == null ? Double.NaN : cpu.hostCores();
    }

    /** This process's core-seconds per 10^9 bytes moved (NaN: not read). */
    public double processSecondsPerGb() {
        return cpu == null ? Double.NaN : cpu.processSecondsPerGb((double) iterations * size);
    }

    /** The machine's core-seconds per 10^9 bytes moved (NaN: not read). */
    public double hostSecondsPerGb() {
        return cpu == null ? Double.NaN : cpu.hostSecondsPerGb((double) iterations * size);
    }
}
