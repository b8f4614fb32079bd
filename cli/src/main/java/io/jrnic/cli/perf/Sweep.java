package io.jrnic.cli.perf;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * {@code jrnic perf --sweep} (as perftest's {@code -a}): every chosen operation at every size from 2 B to 8 MiB
 * (powers of two, or the given sizes), bandwidth and busy-polling latency ({@link Kind#LAT}; no blocking latency,
 * for time), each row next to its TCP baseline as in the table;
 * written as {@code perf-sweep.csv} (the table's CSV) and drawn by {@link SweepChart} as {@code perf-sweep.png}
 * and {@code perf-sweep.svg}. Iterations shrink with the size so that the whole sweep takes minutes, not hours:
 * bandwidth rows move about 64 MiB (at most 20,000 messages), latency rows 500 round trips (100 above 1 MiB),
 * unless {@code --iterations} is given.
 */
public final class Sweep {
    /** 2 B .. 8 MiB. */
    public static final List<Integer> SIZES = powersOfTwo(1, 23);
    static final long BW_BYTES = 64L << 20;

    private Sweep() {
    }

    static List<Integer> powersOfTwo(int fromExp, int toExp) {
        List<Integer> l = new ArrayList<>();
        for (int e = fromExp; e <= toExp; e++) {
            l.add(1 << e);
        }
        return List.copyOf(l);
    }

    static long iterations(Kind k, int size) {
        if (k.latency()) {
            return size > (1 << 20) ? 100 : 500;
        }
        return Math.max(50, Math.min(20_000, BW_BYTES / size));
    }

    /** Runs the sweep (server and client in this process) and writes the CSV and the two pictures into {@code dir}. */
    public static List<Result> run(PerfConfig base, String provider, List<Integer> sizes, boolean fixedIterations,
                                   Path dir, PrintWriter progress) throws IOException {
        List<Result> all = new ArrayList<>();
        for (Kind k : Kind.values()) {
            // time budget: latency is swept busy-polling only, bandwidth batched only
            if (!base.kinds().contains(k) || k.blocking() || k == Kind.BW_MSG) {
                continue;
            }
            for (int size : sizes) {
                PerfConfig c = base.withKinds(EnumSet.of(k)).withSizes(List.of(size))
                        .withIterations(fixedIterations ? base.iterations() : iterations(k, size));
                all.addAll(PerfRunner.local(c, provider, 0, progress));
            }
        }
        Files.createDirectories(dir);
        StringWriter csv = new StringWriter();
        try (PrintWriter w = new PrintWriter(csv)) {
            Table.csv(w, all);
        }
        Files.writeString(dir.resolve("perf-sweep.csv"), csv.toString(), StandardCharsets.UTF_8);
        SweepChart.write(all, base, dir.resolve("perf-sweep.png"), dir.resolve("perf-sweep.svg"));
        return all;
    }
}
