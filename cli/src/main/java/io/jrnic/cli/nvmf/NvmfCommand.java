package io.jrnic.cli.nvmf;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jrnic nvmf}: NVMe over Fabrics (RDMA transport) target, host and benchmark. */
@Command(name = "nvmf", description = "NVMe over Fabrics with the RDMA transport: target, host, bench.",
        subcommands = {NvmfTargetCommand.class, NvmfHostCommand.class, NvmfBenchCommand.class})
public final class NvmfCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
