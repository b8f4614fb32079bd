package io.jrnic.cli.perf;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU a measured run used, as perftest's {@code --cpu_util} and iperf3's CPU utilization report it: this
 * process's CPU time (every thread: with the server in this process, both ends) and the whole machine's busy time
 * from {@code /proc/stat} (every core; busy = user + nice + system + irq + softirq, so the kernel's network work done
 * in softirq, which a process's CPU time may not include, is counted; both hosts' when they are namespaces of this
 * machine). A reading is two {@link Sample}s; where a source is missing (no {@code /proc/stat}, no process CPU
 * time) its figures are NaN. Both sources count in clock ticks on Linux (10 ms), so a run shorter than about a second
 * gives coarse figures.
 */
public final class CpuClock {
    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final com.sun.management.OperatingSystemMXBean OS = os();

    private CpuClock() {
    }

    /** One point in time: wall clock, process CPU time (-1: unknown), the machine's busy and total ticks (-1). */
    public record Sample(long wallNanos, long processNanos, long hostBusy, long hostTotal, int hostCpus) {
    }

    /**
     * What a run used between two samples: {@code processCores} = process CPU time / wall time, {@code hostCores} =
     * the machine's busy share x its cores (both NaN when unknown).
     */
    public record Use(long wallNanos, double processCores, double hostCores) {
        /** Core-seconds of this process per 10^9 bytes moved (NaN when unknown or nothing moved). */
        public double processSecondsPerGb(double bytes) {
            return perGb(processCores, bytes);
        }

        /** Core-seconds of the whole machine per 10^9 bytes moved. */
        public double hostSecondsPerGb(double bytes) {
            return perGb(hostCores, bytes);
        }

        private double perGb(double cores, double bytes) {
            return bytes <= 0 || Double.isNaN(cores) ? Double.NaN : cores * wallNanos / bytes;
        }
    }

    /** The wall clock first, then the slower reads (process CPU time, /proc/stat). */
    public static Sample now() {
        long wall = System.nanoTime();
        long proc = OS == null ? -1 : OS.getProcessCpuTime();
        long[] host = hostTicks();
        return new Sample(wall, proc, host[0], host[1], (int) host[2]);
    }

    public static Use between(Sample a, Sample b) {
        long wall = Math.max(1, b.wallNanos() - a.wallNanos());
        double proc = a.processNanos() < 0 || b.processNanos() < 0 ? Double.NaN
                : (double) (b.processNanos() - a.processNanos()) / wall;
        long total = b.hostTotal() - a.hostTotal();
        double host = a.hostTotal() < 0 || b.hostTotal() < 0 || total <= 0 ? Double.NaN
                : (double) (b.hostBusy() - a.hostBusy()) / total * b.hostCpus();
        return new Use(wall, proc, host);
    }

    /** busy, total and CPU count from {@code /proc/stat}'s text, or -1s. */
    static long[] parseProcStat(String text) {
        long[] none = {-1, -1, -1};
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].startsWith("cpu ")) {
            return none;
        }
        String[] f = lines[0].trim().split("\\s+");
        if (f.length < 8) {
            return none;
        }
        long[] v = new long[8]; // user nice system idle iowait irq softirq steal
        for (int i = 0; i < 8; i++) {
            v[i] = i + 1 < f.length ? Long.parseLong(f[i + 1]) : 0;
        }
        long busy = v[0] + v[1] + v[2] + v[5] + v[6];
        long total = busy + v[3] + v[4] + v[7];
        int cpus = 0;
        for (int i = 1; i < lines.length && lines[i].startsWith("cpu"); i++) {
            cpus++;
        }
        return new long[] {busy, total, cpus};
    }

    private static long[] hostTicks() {
        try {
            return parseProcStat(Files.readString(PROC_STAT));
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1, -1};
        }
    }

    private static com.sun.management.OperatingSystemMXBean os() {
        try {
            return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o
                    ? o : null;
        } catch (LinkageError | RuntimeException e) {
            return null;
        }
    }
}
