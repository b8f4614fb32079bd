package io.jrnic.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code jrnic} command line. */
@Command(name = "jrnic", mixinStandardHelpOptions = true, version = "jrnic 0.1.0-SNAPSHOT",
        description = "A pure-Java software RNIC speaking iWARP.",
        subcommands = {CommandLine.HelpCommand.class, DecodeCommand.class, PerfCommand.class, RpingCommand.class, StatCommand.class,
                io.jrnic.cli.tools.RdmaServerCommand.class, io.jrnic.cli.tools.RdmaClientCommand.class,
                io.jrnic.cli.tools.UcmatoseCommand.class,
                InteropCommand.class,
                SrpBenchCommand.class, io.jrnic.cli.nvmf.NvmfCommand.class, ProxyCommand.class, SoakCommand.class, ConformCommand.class, FuzzCommand.class})
public final class Jrnic implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut()); // this instance's command line: the perftest tools too
    }

    /** The whole command line: the annotated subcommands and the perftest tools ({@code PerftestCommand.addTo}). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Jrnic());
        io.jrnic.cli.tools.PerftestCommand.addTo(cl);
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
