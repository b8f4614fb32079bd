package io.jrnic.cli.perf;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a plan: each RDMA test through {@link RdmaPerf}, next to its raw-TCP baseline through
 * {@link TcpPerf} against the same server. The baseline of a (kind, size, iterations) is measured once,
 * just before the first RDMA row that needs it, and shown next to each operation's row.
 */
public final class PerfRunner {
    private PerfRunner() {
    }

    /** One process: a {@link PerfServer} on 127.0.0.1 ({@code port} 0 = ephemeral) and the client. */
    public static List<Result> local(PerfConfig cfg, String provider, int port, PrintWriter progress) throws IOException {
        try (PerfServer server = new PerfServer(cfg, provider, new InetSocketAddress("127.0.0.1", port),
                port == 0 ? 0 : -1, progress)) {
            return client(cfg, provider, server.rdmaAddress(), server.baselineAddress(), progress);
        }
    }

    /** The client against a server at {@code rdma} whose control and baseline port is {@code baseline}. */
    public static List<Result> client(PerfConfig cfg, String provider, InetSocketAddress rdma, InetSocketAddress baseline,
                                      PrintWriter progress) throws IOException {
        List<Result> out = new ArrayList<>();
        Map<String, Object> tcp = new HashMap<>();
        try (RdmaPerf rp = new RdmaPerf(cfg, provider, rdma, baseline)) {
            for (PerfCase c : cfg.plan()) {
                say(progress, "running " + c.name() + " " + c.size() + " B x " + c.iterations());
                RdmaPerf.Outcome o = rp.run(c);
                Object base = null;
                String tcpFailure = null;
                if (cfg.tcpBaseline()) {
                    String key = c.kind() + "/" + c.size() + "/" + c.iterations();
                    base = tcp.get(key);
                    if (base == null) {
                        say(progress, "running tcp " + c.kind().label() + " " + c.size() + " B x " + c.iterations());
                        try {
                            base = baseline(c, baseline, cfg.maxNanos());
                            tcp.put(key, base);
                        } catch (IOException | RuntimeException e) {
                            tcpFailure = "tcp baseline: " + RdmaPerf.describe(e);
                        }
                    }
                }
                String failure = o.failure() != null ? o.failure() : tcpFailure;
                out.add(c.kind() == Kind.BW
                        ? Result.bw(c, o.bw(), (BwFigure) base, failure, o.note())
                        : Result.lat(c, o.lat(), base instanceof TcpLat l ? (c.op() == Op.READ ? l.whole() : l.half()) : null,
                                failure, o.note()));
            }
        }
        return out;
    }

    /** The raw-TCP figure for a case: a stream for BW, a ping-pong for LAT (scaled like the RDMA row). */
    static Object baseline(PerfCase c, InetSocketAddress addr, long maxNanos) throws IOException {
        if (c.kind() == Kind.BW) {
            return TcpPerf.bandwidth(addr, c.size(), c.iterations(), maxNanos);
        }
        TcpPerf.Run r = TcpPerf.pingPong(addr, c.size(), c.iterations(), maxNanos);
        if (r.iterations() == 0) {
            throw new IOException("no TCP round trip within the cap");
        }
        return new TcpLat(LatFigure.of(r.samples(), (int) r.iterations(), 0.5),
                LatFigure.of(r.samples(), (int) r.iterations(), 1.0));
    }

    /** The TCP ping-pong as half (write/send convention) and whole (read convention) round trips. */
    record TcpLat(LatFigure half, LatFigure whole) {
    }

    private static void say(PrintWriter p, String s) {
        if (p != null) {
            p.println(s);
            p.flush();
        }
    }
}
