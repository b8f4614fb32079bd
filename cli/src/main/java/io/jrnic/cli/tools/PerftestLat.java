package io.jrnic.cli.tools;

import io.jrnic.cli.perf.Deadline;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * perftest's latency tests ({@code ib_write_lat}, {@code ib_send_lat}, {@code ib_read_lat}) after the exchange
 * preamble shared with the bandwidth tests ({@link Perftest}): zero dest, four dests (the last one, after
 * the receives are posted, tells the peer it may send), the data phase, then SEND/READ one closing dest
 * exchange (ctx_close_connection); WRITE has none. No reports are exchanged: each side prints its own
 * (ib_read_lat's server prints none). Data phase, tx depth 1:
 * <ul>
 * <li>WRITE: ping-pong of {@code size}-byte RDMA Writes into the peer's advertised buffer; the last byte
 * carries the sender's iteration count modulo 256 and the receiver polls the last byte of its own buffer
 * for it. The server writes first.</li>
 * <li>SEND: ping-pong of {@code size}-byte Sends, the client first; every receive is posted in advance.</li>
 * <li>READ: the client RDMA-Reads {@code size} bytes from the server's buffer, one at a time; the server
 * only waits for the closing exchange.</li>
 * </ul>
 * Times as perftest prints them: WRITE and SEND half the round trip, READ the whole Read, in microseconds.
 */
final class PerftestLat {
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);

    private PerftestLat() {
    }

    /** print_report_lat's fields, microseconds. */
    public record LatReport(long size, long iters, double tMin, double tMax, double tTypical, double tAvg,
                            double tStdev, double p99, double p999) implements Perftest.Report {
        static final String HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";

        @Override
        public String line() {
            return String.format(" %-7d %-7d    %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f",
                    size, iters, tMin, tMax, tTypical, tAvg, tStdev, p99, p999);
        }

        /** From per-iteration samples in nanoseconds. */
        static LatReport of(long size, long[] nanos) {
            double[] us = Arrays.stream(nanos).mapToDouble(n -> n / 1e3).sorted().toArray();
            double avg = Arrays.stream(us).average().orElse(0);
            double var = Arrays.stream(us).map(x -> (x - avg) * (x - avg)).average().orElse(0);
            return new LatReport(size, us.length, us[0], us[us.length - 1], us[us.length / 2], avg, Math.sqrt(var),
                    us[Math.min(us.length - 1, (int) Math.ceil(us.length * 0.99) - 1)],
                    us[Math.min(us.length - 1, (int) Math.ceil(us.length * 0.999) - 1)]);
        }
    }

    static Perftest.Report run(Perftest.Session s) throws Exception {
        Perftest.Params p = s.p;
        Arrays.fill(s.data, (byte) 0);   // WRITE polls the last byte: no stale value may match
        PerftestComm comm = s.comm;
        comm.handShake(PerftestDest.zero());
        PerftestDest my = new PerftestDest(0, p.outReads(), s.qpn, s.psn, s.dataMr.stag(), s.dataMr.address(), null, 0, 0);
        PerftestDest rem = null;
        for (int i = 0; i < 4; i++) {
            rem = comm.handShake(my);
        }
        s.say("---------------------------------------------------------------------------------------");
        s.say(my.describe("local", p.verb()));
        s.say(rem.describe("remote", p.verb()));
        s.say("---------------------------------------------------------------------------------------");
        s.say(LatReport.HEADER);
        long[] samples = switch (p.verb()) {
            case WRITE -> write(s, rem);
            case SEND -> send(s);
            case READ -> s.client ? read(s, rem) : null;
        };
        LatReport mine = samples == null ? null : LatReport.of(p.size(), samples);
        if (mine != null) {
            s.say(mine.line());
        }
        s.say("---------------------------------------------------------------------------------------");
        if (p.verb() != Perftest.Verb.WRITE) {
            comm.handShake(my);   // ctx_close_connection
        }
        return mine;
    }

    private static int sendArea(Perftest.Session s) {
        return s.data.length / 2;
    }

    /** run_iter_lat_write: the server skips its first wait, so it writes first. */
    private static long[] write(Perftest.Session s, PerftestDest rem) throws Exception {
        int n = s.p.iters();
        int size = s.p.size();
        int post = sendArea(s) + size - 1;
        int poll = size - 1;
        SendWr wr = SendWr.rdmaWrite().local(s.dataMr.sge(sendArea(s), size)).remote(rem.rkey(), rem.vaddr()).signaled();
        long[] posted = new long[n + 1];
        Deadline d = Deadline.in(Long.MAX_VALUE).stall(TimeUnit.SECONDS.toNanos(30));
        int scnt = 0;
        int rcnt = 0;
        while (scnt < n || rcnt < n) {
            if (rcnt < n && !(scnt < 1 && !s.client)) {
                rcnt++;
                byte want = (byte) rcnt;
                while ((byte) BYTES.getVolatile(s.data, poll) != want) {
                    d.idle("RDMA Write " + rcnt + " of " + n + " from the peer");
                }
                d.progress();
            }
            if (scnt < n) {
                s.data[post] = (byte) ++scnt;
                posted[scnt - 1] = System.nanoTime();
                s.qp.postSend(wr.id(scnt));
                s.side.await(s.side.sendCq, 1, "RDMA Write completion " + scnt, null);
            }
        }
        posted[n] = System.nanoTime();
        return halfRoundTrips(posted);
    }

    /** run_iter_lat_send: the client sends first, the server answers each receive. */
    private static long[] send(Perftest.Session s) throws Exception {
        int n = s.p.iters();
        int size = s.p.size();
        SendWr wr = SendWr.send().local(s.dataMr.sge(sendArea(s), size)).signaled();
        long[] posted = new long[n + 1];
        int recvPosted = s.p.rxDepth();
        for (int i = 1; i <= n; i++) {
            if (!s.client) {
                receive(s, i);
            }
            posted[i - 1] = System.nanoTime();
            s.qp.postSend(wr.id(i));
            s.side.await(s.side.sendCq, 1, "Send completion " + i, null);
            if (s.client) {
                receive(s, i);
            }
            if (recvPosted < n) {
                s.qp.postRecv(RecvWr.of(recvPosted++, s.dataMr.sge(0, size)));
            }
        }
        posted[n] = System.nanoTime();
        return halfRoundTrips(posted);
    }

    private static void receive(Perftest.Session s, int i) throws Exception {
        s.side.await(s.side.recvCq, 1, "Send " + i + " from the peer", (Completion c) -> {
            if (c.opcode() != CompletionOpcode.RECV || c.byteLength() != s.p.size()) {
                throw new IllegalStateException("expected a " + s.p.size() + "-byte Send, got " + c.opcode() + " of "
                        + c.byteLength() + " bytes");
            }
        });
    }

    /** run_iter_lat (READ): one outstanding Read, the client only. */
    private static long[] read(Perftest.Session s, PerftestDest rem) throws Exception {
        int n = s.p.iters();
        SendWr wr = SendWr.rdmaRead().local(s.dataMr.sge(0, s.p.size())).remote(rem.rkey(), rem.vaddr()).signaled();
        long[] took = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            s.qp.postSend(wr.id(i));
            s.side.await(s.side.sendCq, 1, "RDMA Read " + (i + 1) + " of " + n, null);
            took[i] = System.nanoTime() - t0;
        }
        return took;
    }

    private static long[] halfRoundTrips(long[] posted) {
        long[] r = new long[posted.length - 1];
        for (int i = 0; i < r.length; i++) {
            r[i] = Math.max(0, posted[i + 1] - posted[i]) / 2;
        }
        return r;
    }
}
