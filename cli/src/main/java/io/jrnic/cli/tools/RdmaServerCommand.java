package io.jrnic.cli.tools;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jrnic rdma-server}: rdma-core's rdma_server example (same flag -p, same wire exchange). */
@Command(name = "rdma-server", description = {"rdma_server (rdma-core librdmacm/examples) over the soft RNIC.",
        "Exit code: 0 ok, 1 failed."})
public final class RdmaServerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-p", paramLabel = "port", defaultValue = "7471", description = "port (default 7471)") int port;
    @Option(names = "-a", paramLabel = "addr", description = "bind address (jrnic extension; default any)") String bind;
    @Mixin ToolOptions tool;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("rdma_server: start");
        out.flush();
        int ret = 0;
        InetSocketAddress addr = bind == null ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
        try (RdmaServerClient.Server s = new RdmaServerClient.Server("soft", addr, tool.connectOptions(16),
                tool.maxSeconds)) {
            s.serve(tool.maxSeconds);
        } catch (Exception e) {
            spec.commandLine().getErr().println("rdma_server: " + e);
            ret = 1;
        }
        out.println("rdma_server: end " + ret);
        out.flush();
        return ret;
    }
}
