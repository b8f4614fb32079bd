package io.jrnic.cli;

import io.jrnic.cli.perf.Rping;
import io.jrnic.cli.perf.RpingPersistentServer;
import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic rping}: rdma-core's rping over the soft RNIC, same flags and wire protocol
 * (-s server, -c client, -a address, -p port, -C count, -S size, -v verbose, -V validate).
 * Exit code 0 on success, 1 when a ping failed (or data mismatched with -V), 2 on bad usage.
 */
@Command(name = "rping", description = {"rping (rdma-core) over the soft RNIC: same flags, same wire protocol.",
        "Exit code: 0 ok, 1 ping failed or data mismatch, 2 bad usage."})
public final class RpingCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-s", description = "server side") boolean server;
    @Option(names = "-c", description = "client side") boolean client;
    @Option(names = "-a", paramLabel = "addr", description = "address (server: bind address, default 0.0.0.0)") String address;
    @Option(names = "-p", paramLabel = "port", defaultValue = "7174", description = "port (default 7174)") int port;
    @Option(names = "-C", paramLabel = "count", defaultValue = "0", description = "ping count (0 = until --max-seconds)") int count;
    @Option(names = "-S", paramLabel = "size", defaultValue = "64", description = "ping data size, 26..65535 (default 64)") int size;
    @Option(names = "-v", description = "display ping data to stdout") boolean verbose;
    @Option(names = "-P", description = "server: persistent, serve client after client (until --max-seconds without one)")
    boolean persistent;
    @Option(names = "-V", description = "validate ping data") boolean validate;
    @Option(names = "-d", description = "debug printfs (accepted, no effect)") boolean debug;
    @Option(names = "--crc", description = "request MPA CRC (rping leaves it to the stack; siw's default is off)") boolean crc;
    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "3600",
            description = "wall-clock cap: client pings, server wait for a client (default 3600)") long maxSeconds;
    @Option(names = "--capture", paramLabel = "FILE", description = "write a pcap of the connection to FILE (server: of every accepted connection, FILE, FILE-2...)")
    java.nio.file.Path capture;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;
    @picocli.CommandLine.Mixin TerminatesOption terminates = new TerminatesOption();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (server == client) {
            err.println("rping: exactly one of -s and -c");
            return 2;
        }
        if (size < Rping.MIN_SIZE || size > Rping.MAX_SIZE) {
            err.printf("Invalid size %d (valid range is %d to %d)%n", size, Rping.MIN_SIZE, Rping.MAX_SIZE);
            return 2;
        }
        if (count < 0) {
            err.println("Invalid count " + count);
            return 2;
        }
        ConnectOptions base = terminates.apply(ConnectOptions.defaults().crc(crc).capture(capture));
        try {
            if (server) {
                InetSocketAddress bind = address == null ? new InetSocketAddress(port)
                        : new InetSocketAddress(InetAddress.getByName(address), port);
                if (persistent) {
                    try (RpingPersistentServer s = new RpingPersistentServer("soft", bind, size, base)) {
                        long n = s.serve(maxSeconds, 0, verbose ? out : null, err);
                        err.println("server: " + n + " clients served");
                    }
                    return 0;
                }
                try (Rping.Server s = new Rping.Server("soft", bind, size, base)) {
                    long n = s.serve(maxSeconds, verbose ? out : null);
                    err.println("server DISCONNECT EVENT... (" + n + " pings served)");
                }
            } else {
                if (address == null) {
                    err.println("rping: -c needs -a address");
                    return 2;
                }
                long n = Rping.client("soft", new InetSocketAddress(InetAddress.getByName(address), port), count, size,
                        validate, verbose ? out : null, base, maxSeconds);
                if (count != 0 && n < count) {
                    err.println("rping client: " + n + " of " + count + " pings within " + maxSeconds + " s");
                    return 1;
                }
            }
            return 0;
        } catch (Exception e) {
            err.println("rping " + (server ? "server" : "client") + " failed: " + e);
            return 1;
        }
    }
}
