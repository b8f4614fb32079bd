package io.jrnic.cli;

import io.jrnic.examples.srp.SrpBench;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic srp-bench}: the SRP-style block example over jrnic next to the same protocol over
 * plain TCP, on loopback, in one run (see {@link SrpBench}). Exit code 0 when every command
 * succeeded and every block verified, 1 otherwise, 2 on bad usage.
 */
@Command(name = "srp-bench", description = {
        "SRP-style block storage over jrnic vs the same block protocol over plain TCP (Netty), loopback.",
        "4 KiB random read/write and 1 MiB sequential read/write at each queue depth; every block verified.",
        "Medians over alternating repetitions; ratio = jrnic IOPS / TCP IOPS. MB = 10^6 bytes.",
        "Exit code: 0 ok, 1 a command failed or data mismatched, 2 bad usage."})
public final class SrpBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--qd", split = ",", paramLabel = "N[,N...]", defaultValue = "1,4,16,64",
            description = "queue depths, 1..64 (default 1,4,16,64)") int[] queueDepths;
    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0.25",
            description = "seconds per measured cell (default 0.25)") double seconds;
    @Option(names = "--reps", paramLabel = "N", defaultValue = "3",
            description = "repetitions per cell and transport, alternating (default 3)") int reps;
    @Option(names = "--device-mib", paramLabel = "MiB", defaultValue = "64",
            description = "size of the target's file-backed device (default 64)") int deviceMib;
    @Option(names = "--dir", paramLabel = "DIR", description = "directory for the device file (default: a temporary one)")
    Path dir;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() throws Exception {
        Logs.quietConnections();
        if (deviceMib < 1 || reps < 1 || !(seconds > 0) || seconds > 600) {
            spec.commandLine().getErr().println("srp-bench: --device-mib >= 1, --reps >= 1, 0 < --seconds <= 600");
            return 2;
        }
        for (int qd : queueDepths) {
            if (qd < 1 || qd > 64) {
                spec.commandLine().getErr().println("srp-bench: queue depth " + qd + " outside 1..64");
                return 2;
            }
        }
        return SrpBench.run(new SrpBench.Settings(queueDepths, seconds, reps, deviceMib * 256L, dir),
                spec.commandLine().getOut());
    }
}
