package io.jrnic.cli.tools;

import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * perftest's bandwidth and latency tools in rdma_cm mode: {@code jrnic ib-send-bw|ib-write-bw|ib-read-bw|
 * ib-send-lat|ib-write-lat|ib-read-lat -R [-p port] [-s size] [-n iters] [host]}; server without host, client
 * with it. One command shape, registered six times by {@link #addTo} (verb and bw/lat are its only differences).
 * The latency tools' defaults are perftest's: -s 2, -n 1000. Exit code 0 ok, 1 failed, 2 bad usage.
 */
@Command(description = "perftest over the soft RNIC (wire-compatible, 1 QP)")
public final class PerftestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-R", description = "connect QPs with rdma_cm and exchange over rdma_cm (required: the only mode)")
    boolean rdmaCm;
    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "listen on/connect to port (default 18515)")
    int port;
    @Option(names = {"-s", "--size"}, defaultValue = "65536", description = "message size (default 65536; lat tools 2)")
    int size;
    @Option(names = {"-n", "--iters"}, defaultValue = "5000", description = "iterations (default 5000; lat tools 1000)")
    int iters;
    @Option(names = "--bind", paramLabel = "addr", description = "server bind address (jrnic extension; default any)")
    String bind;
    @Parameters(arity = "0..1", paramLabel = "host", description = "server to connect to (client); none: server")
    String host;
    @Mixin
    ToolOptions tool;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    private final Perftest.Verb verb;
    /** ib_*_lat rather than ib_*_bw. */
    private final boolean latency;

    PerftestCommand(Perftest.Verb verb, boolean latency) {
        this.verb = verb;
        this.latency = latency;
    }

    /** Adds the six tools to {@code jrnic}: ib-{send,write,read}-{bw,lat}. */
    public static void addTo(CommandLine jrnic) {
        for (boolean lat : new boolean[] {false, true}) {
            for (Perftest.Verb v : new Perftest.Verb[] {Perftest.Verb.SEND, Perftest.Verb.WRITE, Perftest.Verb.READ}) {
                String tool = "ib_" + v.name().toLowerCase() + (lat ? "_lat" : "_bw");
                CommandLine c = new CommandLine(new PerftestCommand(v, lat));
                c.getCommandSpec().usageMessage().description("perftest " + tool + " -R over the soft RNIC (wire-compatible, 1 QP).",
                        "Exit code: 0 ok, 1 failed, 2 bad usage.");
                jrnic.addSubcommand(tool.replace('_', '-'), c);
            }
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!rdmaCm) {
            err.println(" jrnic runs perftest in rdma_cm mode only: add -R");
            return 2;
        }
        if (latency && !spec.commandLine().getParseResult().hasMatchedOption("-s")) {
            size = 2;
        }
        if (latency && !spec.commandLine().getParseResult().hasMatchedOption("-n")) {
            iters = 1000;
        }
        Perftest.Params p;
        try {
            p = new Perftest.Params(verb, iters, size, latency);
        } catch (IllegalArgumentException e) {
            err.println(" " + e.getMessage());
            return 2;
        }
        out.println("---------------------------------------------------------------------------------------");
        out.println("                    " + p.title());
        out.println(" Number of qps   : 1\t\tTransport type : IW (jrnic soft RNIC)");
        out.println(" Connection type : RC\t\tTX depth       : " + p.txDepth());
        out.println(" rdma_cm QPs\t : ON");
        out.println(" Data ex. method : rdma_cm");
        out.flush();
        try {
            if (host == null) {
                out.println(" Waiting for client to connect...");
                out.flush();
                InetSocketAddress addr = bind == null ? new InetSocketAddress(port) : new InetSocketAddress(bind, port);
                try (Perftest.Server s = new Perftest.Server("soft", addr, p, options(p), tool.maxSeconds)) {
                    s.serve(out);
                }
            } else {
                Perftest.client("soft", new InetSocketAddress(host, port), p, options(p), tool.maxSeconds, out);
            }
            return 0;
        } catch (Exception e) {
            err.println(" " + p.title() + " failed: " + e);
            return 1;
        }
    }

    /**
     * ib_write_lat's server writes first on the test connection, but an MPA responder may only send after the
     * initiator's first FPDU (RFC 5044 section 7.1): jrnic offers peer-to-peer (zero-length Write/Read RTR,
     * RFC 6581) on the test connection then, unless --no-p2p. The exchange connection never uses it.
     */
    ConnectOptions options(Perftest.Params p) {
        return p.latency() && p.verb() == Perftest.Verb.WRITE ? tool.responderSendsFirst(0) : tool.connectOptions(0);
    }
}
