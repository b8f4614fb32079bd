package io.jrnic.cli.tools;

import static io.jrnic.cli.tools.Perftest.LE_INT;

import io.jrnic.cli.perf.Deadline;
import io.jrnic.cli.tools.Perftest.BwReport;
import io.jrnic.cli.tools.Perftest.Params;
import io.jrnic.cli.tools.Perftest.Verb;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.util.concurrent.TimeUnit;

/**
 * perftest's bandwidth tests' data phase ({@code ib_send_bw}, {@code ib_write_bw}, {@code ib_read_bw}) after the
 * exchange preamble ({@link Perftest.Session#run}): the client keeps up to tx depth WRs in flight (READ: within the
 * peer's and its own outstanding reads); SEND is flow-controlled by credits, the server RDMA-Writing its receive count
 * into the client's credit word every {@code creditCount} receives, as perftest does. Each side measures as perftest
 * reports it ({@link Meter}).
 */
final class PerftestBw {
    private PerftestBw() {
    }

    static BwReport sendClient(Perftest.Session s) throws Exception {
        SendWr[] wrs = new SendWr[s.p.txDepth()];
        for (int i = 0; i < wrs.length; i++) {
            wrs[i] = SendWr.send().local(s.dataMr.sge(0, s.p.size())).signaled();
        }
        Meter m = new Meter(s.p);
        Deadline d = Deadline.in(Long.MAX_VALUE).stall(TimeUnit.SECONDS.toNanos(30));
        int scnt = 0;
        int ccnt = 0;
        while (ccnt < s.p.iters()) {
            while (scnt < s.p.iters() && scnt - ccnt < s.p.txDepth()
                    && scnt - (int) LE_INT.getVolatile(s.credit, 4) < s.p.rxDepth()) {
                s.qp.postSend(wrs[scnt % wrs.length].id(scnt));
                scnt++;
            }
            int n = poll(s, s.side.sendCq, "send completions", ccnt, s.p.iters(), d);
            ccnt += n;
            m.completed(ccnt, n);
        }
        return m.report();
    }

    static BwReport sendServer(Perftest.Session s, PerftestDest rem) throws Exception {
        Meter m = new Meter(s.p);
        Deadline d = Deadline.in(Long.MAX_VALUE).stall(TimeUnit.SECONDS.toNanos(30));
        int posted = s.p.rxDepth();
        int rcnt = 0;
        int credits = 0;
        while (rcnt < s.p.iters()) {
            int n = poll(s, s.side.recvCq, "receives", rcnt, s.p.iters(), d);
            for (int i = 0; i < n; i++) {
                Completion c = s.wcs[i];
                if (c.opcode() != CompletionOpcode.RECV || c.byteLength() != s.p.size()) {
                    throw new IllegalStateException("expected a " + s.p.size() + "-byte Send, got " + c.opcode()
                            + " of " + c.byteLength() + " bytes");
                }
                rcnt++;
                if (posted < s.p.iters()) {
                    s.qp.postRecv(RecvWr.of(posted++, s.dataMr.sge(0, s.p.size())));
                }
                if (rcnt % s.p.creditCount() == 0 || rcnt == s.p.iters()) {
                    int slot = 4 * credits++;
                    LE_INT.setVolatile(s.ctrl, slot, rcnt);
                    s.qp.postSend(SendWr.rdmaWrite().id(credits).local(s.ctrlMr.sge(slot, 4))
                            .remote(rem.rkey(), rem.vaddr()).signaled());
                }
            }
            m.completed(rcnt, n);
        }
        s.side.await(s.side.sendCq, credits, "credit writes", null);
        return m.report();
    }

    static BwReport rdmaClient(Perftest.Session s, PerftestDest rem) throws Exception {
        int window = s.p.verb() == Verb.READ
                ? Math.min(s.p.txDepth(), Math.max(1, Math.min(rem.outReads(), s.p.outReads()))) : s.p.txDepth();
        SendWr[] wrs = new SendWr[window];
        for (int i = 0; i < wrs.length; i++) {
            wrs[i] = (s.p.verb() == Verb.READ ? SendWr.rdmaRead() : SendWr.rdmaWrite())
                    .local(s.dataMr.sge(0, s.p.size())).remote(rem.rkey(), rem.vaddr()).signaled();
        }
        Meter m = new Meter(s.p);
        Deadline d = Deadline.in(Long.MAX_VALUE).stall(TimeUnit.SECONDS.toNanos(30));
        int scnt = 0;
        int ccnt = 0;
        while (ccnt < s.p.iters()) {
            while (scnt < s.p.iters() && scnt - ccnt < window) {
                s.qp.postSend(wrs[scnt % wrs.length].id(scnt));
                scnt++;
            }
            int n = poll(s, s.side.sendCq, s.p.verb().title + " completions", ccnt, s.p.iters(), d);
            ccnt += n;
            m.completed(ccnt, n);
        }
        return m.report();
    }

    private static int poll(Perftest.Session s, io.jrnic.verbs.CompletionQueue cq, String what, int done, int total,
            Deadline d) throws Exception {
        while (true) {
            int n = cq.poll(s.wcs, 0, Math.min(s.wcs.length, total - done));
            if (n > 0) {
                d.progress();
                for (int i = 0; i < n; i++) {
                    if (s.wcs[i].status() != CompletionStatus.SUCCESS) {
                        throw new IllegalStateException(what + ": completion failed: " + s.wcs[i].status()
                                + (s.wcs[i].terminate() == null ? "" : " " + s.wcs[i].terminate()));
                    }
                }
                return n;
            }
            d.idle(what + " (" + done + " of " + total + ")");
        }
    }

    /** Bandwidth figures as perftest reports them: MB = 2^20 bytes, message rate in Mpps. */
    private static final class Meter {
        final Params p;
        final long start = System.nanoTime();
        long last = start;
        double peak;

        Meter(Params p) {
            this.p = p;
        }

        void completed(int total, int n) {
            long now = System.nanoTime();
            long dt = Math.max(1, now - last);
            peak = Math.max(peak, (double) n * p.size() / (dt / 1e9) / (1 << 20));
            last = now;
        }

        BwReport report() {
            double secs = Math.max(1, last - start) / 1e9;
            double avg = (double) p.iters() * p.size() / secs / (1 << 20);
            return new BwReport(p.size(), p.iters(), Math.max(peak, avg), avg, p.iters() / secs / 1e6);
        }
    }
}
