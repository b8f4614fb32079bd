package io.jrnic.cli.tools;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic ucmatose}: rdma-core's ucmatose (cmatose.c), server without -s, client with -s; flags -s,
 * -b, -p, -C, -S, -c (1 only). Exit code 0 ok, 1 failed, 2 bad usage.
 */
@Command(name = "ucmatose", description = {"ucmatose (rdma-core librdmacm/examples) over the soft RNIC, one connection.",
        "Exit code: 0 ok, 1 failed, 2 bad usage."})
public final class UcmatoseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-s", paramLabel = "server_address", description = "server address: run as client") String server;
    @Option(names = "-b", paramLabel = "bind_address", description = "bind address (server)") String bind;
    @Option(names = "-p", paramLabel = "port", defaultValue = "7471", description = "port (default 7471)") int port;
    @Option(names = "-C", paramLabel = "message_count", defaultValue = "10", description = "messages (default 10)") int count;
    @Option(names = "-S", paramLabel = "message_size", defaultValue = "100", description = "message size (default 100)") int size;
    @Option(names = "-c", paramLabel = "connections", defaultValue = "1", description = "connections (jrnic: 1 only)") int connections;
    @Mixin ToolOptions tool;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (connections != 1 || count < 0 || size < 0) {
            err.println("ucmatose: jrnic supports -c 1 and non-negative -C/-S only");
            return 2;
        }
        int ret = 0;
        try {
            if (server == null) {
                Ucmatose.say(out, "cmatose: starting server");
                InetSocketAddress addr = bind == null ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
                try (Ucmatose.Server s = new Ucmatose.Server("soft", addr, count, size, tool.responderSendsFirst(16),
                        tool.maxSeconds)) {
                    s.serve(tool.maxSeconds, tool.maxSeconds, out);
                }
            } else {
                Ucmatose.say(out, "cmatose: starting client");
                Ucmatose.client("soft", new InetSocketAddress(server, port), count, size, tool.responderSendsFirst(1),
                        tool.maxSeconds, out);
            }
        } catch (Exception e) {
            err.println("cmatose: " + e);
            ret = 1;
        }
        Ucmatose.say(out, "test complete");
        Ucmatose.say(out, "return status " + ret);
        return ret;
    }
}
