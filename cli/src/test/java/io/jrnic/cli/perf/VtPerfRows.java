package io.jrnic.cli.perf;

import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.List;

/**
 * The child program of {@link VirtualThreadPinningTest#perfBlockingRowsOnVirtualThreadsRunAndVerifyOnJdk25}: the
 * {@code jrnic perf} rows {@link Kind#LAT_BLOCK_VT} (READ and SEND, 64 B, a few iterations, one repetition, TCP
 * baseline on) in this process, printed as CSV; exit 0 when every row ran (not skipped) and passed.
 */
public final class VtPerfRows {
    public static void main(String[] args) throws Exception {
        long iterations = args.length > 0 ? Long.parseLong(args[0]) : 20;
        PerfConfig c = new PerfConfig(EnumSet.of(Op.READ, Op.SEND), EnumSet.of(Kind.LAT_BLOCK_VT), List.of(64), iterations,
                4, true, false, 0, 2, 20, true);
        List<Result> rs = PerfRunner.local(c, "soft", 0, null);
        PrintWriter out = new PrintWriter(System.out, true);
        Table.csv(out, rs);
        boolean ok = rs.size() == 2 && rs.stream().allMatch(r -> r.ok() && !r.isSkipped());
        System.exit(ok ? 0 : 1);
    }
}
