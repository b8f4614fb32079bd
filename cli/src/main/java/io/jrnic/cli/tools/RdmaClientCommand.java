package io.jrnic.cli.tools;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jrnic rdma-client}: rdma-core's rdma_client example (same flags -s, -p, same wire exchange). */
@Command(name = "rdma-client", description = {"rdma_client (rdma-core librdmacm/examples) over the soft RNIC.",
        "Exit code: 0 ok, 1 failed."})
public final class RdmaClientCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-s", paramLabel = "server", defaultValue = "127.0.0.1", description = "server address (default 127.0.0.1)") String server;
    @Option(names = "-p", paramLabel = "port", defaultValue = "7471", description = "port (default 7471)") int port;
    @Mixin ToolOptions tool;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("rdma_client: start");
        out.flush();
        int ret = 0;
        try {
            RdmaServerClient.client("soft", new InetSocketAddress(server, port), tool.connectOptions(16), tool.maxSeconds);
        } catch (Exception e) {
            spec.commandLine().getErr().println("rdma_client: " + e);
            ret = 1;
        }
        out.println("rdma_client: end " + ret);
        out.flush();
        return ret;
    }
}
