package io.jrnic.cli.tools;

import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * perftest's bandwidth and latency tools in rdma_cm mode: {@code jrnic ib-send-bw|ib-write-bw|ib-read-bw|
 * ib-send-lat|ib-write-lat|ib-read-lat -R [-p port] [-s size] [-n iters] [host]}; server without host, client
 * with it. The latency tools' defaults are perftest's: -s 2, -n 1000. Exit code 0 ok, 1 failed, 2 bad usage.
 */
public abstract class PerftestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-R", description = "connect QPs with rdma_cm and exchange over rdma_cm (required: the only mode)")
    boolean rdmaCm;
    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "listen on/connect to port (default 18515)")
    int port;
    @Option(names = {"-s", "--size"}, defaultValue = "65536", description = "message size (default 65536)")
    int size;
    @Option(names = {"-n", "--iters"}, defaultValue = "5000", description = "iterations (default 5000)")
    int iters;
    @Option(names = "--bind", paramLabel = "addr", description = "server bind address (jrnic extension; default any)")
    String bind;
    @Parameters(arity = "0..1", paramLabel = "host", description = "server to connect to (client); none: server")
    String host;
    @Mixin
    ToolOptions tool;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    abstract Perftest.Verb verb();

    /** ib_*_lat rather than ib_*_bw. */
    boolean latency() {
        return false;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!rdmaCm) {
            err.println(" jrnic runs perftest in rdma_cm mode only: add -R");
            return 2;
        }
        Perftest.Params p;
        try {
            p = new Perftest.Params(verb(), iters, size, latency());
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


    @Command(name = "ib-send-bw", description = {"perftest ib_send_bw -R over the soft RNIC (wire-compatible, 1 QP).",
            "Exit code: 0 ok, 1 failed, 2 bad usage."})
    public static final class SendBw extends PerftestCommand {
        @Override
        Perftest.Verb verb() {
            return Perftest.Verb.SEND;
        }
    }

    /** {@code jrnic ib-write-bw}. */
    @Command(name = "ib-write-bw", description = {"perftest ib_write_bw -R over the soft RNIC (wire-compatible, 1 QP).",
            "Exit code: 0 ok, 1 failed, 2 bad usage."})
    public static final class WriteBw extends PerftestCommand {
        @Override
        Perftest.Verb verb() {
            return Perftest.Verb.WRITE;
        }
    }

    /** {@code jrnic ib-read-bw}. */
    @Command(name = "ib-read-bw", description = {"perftest ib_read_bw -R over the soft RNIC (wire-compatible, 1 QP).",
            "Exit code: 0 ok, 1 failed, 2 bad usage."})
    public static final class ReadBw extends PerftestCommand {
        @Override
        Perftest.Verb verb() {
            return Perftest.Verb.READ;
        }
    }

    /** Base of the latency tools: perftest's lat defaults, -s 2 and -n 1000, unless given. */
    abstract static class Lat extends PerftestCommand {
        @Override
        boolean latency() {
            return true;
        }

        @Override
        public Integer call() {
            if (!spec.commandLine().getParseResult().hasMatchedOption("-s")) {
                size = 2;
            }
            if (!spec.commandLine().getParseResult().hasMatchedOption("-n")) {
                iters = 1000;
            }
            return super.call();
        }
    }

    /** {@code jrnic ib-send-lat}. */
    @Command(name = "ib-send-lat", description = {"perftest ib_send_lat -R over the soft RNIC (wire-compatible, 1 QP).",
            "Exit code: 0 ok, 1 failed, 2 bad usage."})
    public static final class SendLat extends Lat {
        @Override
        Perftest.Verb verb() {
            return Perftest.Verb.SEND;
        }
    }

    /** {@code jrnic ib-write-lat}. */
    @Command(name = "ib-write-lat", description = {"perftest ib_write_lat -R over the soft RNIC (wire-compatible, 1 QP).",
            "Exit code: 0 ok, 1 failed, 2 bad usage."})
    public static final class WriteLat extends Lat {
        @Override
        Perftest.Verb verb() {
            return Perftest.Verb.WRITE;
        }
    }

    /** {@code jrnic ib-read-lat}. */
    @Command(name = "ib-read-lat", description = {"perftest ib_read_lat -R over the soft RNIC (wire-compatible, 1 QP).",
            "Exit code: 0 ok, 1 failed, 2 bad usage."})
    public static final class ReadLat extends Lat {
        @Override
        Perftest.Verb verb() {
            return Perftest.Verb.READ;
        }
    }
}
