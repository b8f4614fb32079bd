package io.jrnic.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jrnic} command line. */
@Command(name = "jrnic", mixinStandardHelpOptions = true, version = "jrnic 0.1.0-SNAPSHOT",
        description = "A pure-Java software RNIC speaking iWARP.",
        subcommands = {CommandLine.HelpCommand.class, DecodeCommand.class, PerfCommand.class, RpingCommand.class, StatCommand.class,
                io.jrnic.cli.tools.RdmaServerCommand.class, io.jrnic.cli.tools.RdmaClientCommand.class,
                io.jrnic.cli.tools.UcmatoseCommand.class,
                InteropCommand.class,
                io.jrnic.cli.tools.PerftestCommand.SendBw.class, io.jrnic.cli.tools.PerftestCommand.WriteBw.class, io.jrnic.cli.tools.PerftestCommand.ReadBw.class,
                io.jrnic.cli.tools.PerftestCommand.SendLat.class, io.jrnic.cli.tools.PerftestCommand.WriteLat.class, io.jrnic.cli.tools.PerftestCommand.ReadLat.class,
                SrpBenchCommand.class, io.jrnic.cli.nvmf.NvmfCommand.class, ProxyCommand.class, SoakCommand.class, ConformCommand.class, FuzzCommand.class})
public final class Jrnic implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Jrnic()).execute(args));
    }
}
