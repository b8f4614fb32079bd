package io.jrnic.cli.nvmf;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jrnic nvmf bench}: see {@link NvmfBench}. Exit code 0 all verified, 1 a failure or mismatch, 2 bad usage. */
@Command(name = "bench", description = {
        "NVMe/RDMA (jrnic host and target) vs the SRP example's block protocol over plain TCP, loopback, one run.",
        "4 KiB random read/write and 128 KiB sequential read/write at each queue depth; every block verified.",
        "Medians over alternating repetitions; ratio = NVMe-oF IOPS / TCP IOPS. MB = 10^6 bytes.",
        "Exit code: 0 ok, 1 a command failed or data mismatched, 2 bad usage."})
public final class NvmfBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--qd", split = ",", paramLabel = "N[,N...]", defaultValue = "1,4,16,64",
            description = "queue depths, 1..64 (default 1,4,16,64)") int[] queueDepths;
    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0.25",
            description = "seconds per measured cell (default 0.25)") double seconds;
    @Option(names = "--reps", paramLabel = "N", defaultValue = "3",
            description = "repetitions per cell and transport, alternating (default 3)") int reps;
    @Option(names = "--device-mib", paramLabel = "MiB", defaultValue = "64",
            description = "size of each transport's file-backed device (default 64)") int deviceMib;
    @Option(names = "--no-in-capsule", description = "send write data by keyed SGL only (default: writes <= 8 KiB in the capsule)")
    boolean noInCapsule;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.io.jrnic",
                System.getProperty("org.slf4j.simpleLogger.log.io.jrnic", "warn"));
        if (deviceMib < 1 || reps < 1 || !(seconds > 0) || seconds > 600) {
            spec.commandLine().getErr().println("nvmf bench: --device-mib >= 1, --reps >= 1, 0 < --seconds <= 600");
            return 2;
        }
        for (int qd : queueDepths) {
            if (qd < 1 || qd > 64) {
                spec.commandLine().getErr().println("nvmf bench: queue depth " + qd + " outside 1..64");
                return 2;
            }
        }
        return NvmfBench.run(new NvmfBench.Settings(queueDepths, seconds, reps, deviceMib * 256L, !noInCapsule),
                spec.commandLine().getOut());
    }
}
