package io.jrnic.cli;

import io.jrnic.interop.fault.FaultPlan;
import io.jrnic.interop.fault.FaultProxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jrnic proxy}: the fault-injecting TCP relay of interop, between any two endpoints on loopback. */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = {"A fault-injecting TCP relay on loopback (both ends must be loopback addresses): splits writes at"
                + " random boundaries, delays, stalls, cuts with FIN or RST at a byte, inverts a byte; deterministic"
                + " with --seed. Runs until --seconds pass (default: until interrupted), then prints what it did.",
                "Example: jrnic proxy --listen 7175 --target 7174 --cut 100000 --rst"})
public final class ProxyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Option(names = "--listen", paramLabel = "PORT", defaultValue = "0", description = "port to listen on, 127.0.0.1 (0: ephemeral)")
    int listen;
    @Option(names = "--target", paramLabel = "PORT", required = true, description = "port to relay to, 127.0.0.1")
    int target;
    @Option(names = "--seed", defaultValue = "1", description = "seed of the random choices (default 1)")
    long seed;
    @Option(names = "--split", paramLabel = "MAX", defaultValue = "0", description = "split writes into chunks of 1..MAX bytes")
    int split;
    @Option(names = "--delay", paramLabel = "MS", defaultValue = "0", description = "delay every chunk by MS milliseconds")
    long delay;
    @Option(names = "--stall", paramLabel = "BYTE", defaultValue = "-1", description = "stop reading after BYTE bytes")
    long stall;
    @Option(names = "--stall-ms", paramLabel = "MS", defaultValue = "0", description = "stall length (0: until the connection ends)")
    long stallMs;
    @Option(names = "--cut", paramLabel = "BYTE", defaultValue = "-1", description = "cut the connection at BYTE")
    long cut;
    @Option(names = "--rst", description = "cut with a reset (default: FIN)")
    boolean rst;
    @Option(names = "--flip", paramLabel = "BYTE", defaultValue = "-1", description = "invert the byte at offset BYTE")
    long flip;
    @Option(names = "--direction", defaultValue = "CLIENT_TO_TARGET",
            description = "direction of stall, cut and flip: CLIENT_TO_TARGET (default) or TARGET_TO_CLIENT")
    FaultPlan.Direction direction;
    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0", description = "stop after S seconds (0: run until interrupted)")
    long seconds;

    @Override
    public Integer call() throws Exception {
        FaultPlan plan = FaultPlan.of(seed).withSplit(split).withDelay(delay).withStall(stall, stallMs).withCut(cut, rst)
                .withFlip(flip).on(direction);
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (FaultProxy p = FaultProxy.start(new InetSocketAddress(lo, listen), new InetSocketAddress(lo, target), plan)) {
            spec.commandLine().getOut().println("jrnic proxy: " + p.address() + " -> " + lo.getHostAddress() + ":" + target
                    + " " + plan);
            spec.commandLine().getOut().flush();
            long end = seconds > 0 ? System.nanoTime() + seconds * 1_000_000_000L : Long.MAX_VALUE;
            while (System.nanoTime() < end) {
                Thread.sleep(100);
            }
            for (String e : p.events()) {
                spec.commandLine().getOut().println(e);
            }
            spec.commandLine().getOut().println("jrnic proxy: " + p.connections() + " connections");
        }
        return 0;
    }
}
