package io.jrnic.cli.perf;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * The client's latency loops, one sample per iteration: WRITE as ib_write_lat (post, then poll the last byte of
 * the landing buffer for the server's answer), READ one at a time, SEND as a SEND/RECV ping-pong. The CQ waits as
 * the test's kind says ({@link Cq.Wait}): busy-polling for {@link Kind#LAT}, blocking for {@link Kind#LAT_BLOCK}.
 */
final class LatClient {
    private final RdmaPerf.ClientTest t;
    private final Cq cq;
    private final Deadline cap;
    private final Deadline hang;
    private final int size;

    LatClient(RdmaPerf.ClientTest t, Cq cq, Deadline cap, Deadline hang) {
        this.t = t;
        this.cq = cq;
        this.cap = cap;
        this.hang = hang;
        this.size = t.size;
    }

    /** Fills {@code samples} (nanoseconds) until done or the cap; the number of iterations run. */
    int run(long[] samples) throws TimeoutException, IOException {
        return switch (t.test.op()) {
            case WRITE -> writeLat(samples);
            case READ -> readLat(samples);
            case SEND -> sendLat(samples);
        };
    }

    /** Made once: a method reference per message would be an allocation on the measured path. */
    private final Cq.Check qpDown = this::qpDown;
    private final Waiting awaitedByte = new Waiting("byte ", " to become ", "");
    private final Waiting reply = new Waiting("the reply to SEND ", "");

    private String qpDown() {
        return t.qp.state() != QpState.RTS ? "client QP left RTS: " + t.qp.state() : null;
    }

    private int writeLat(long[] samples) throws TimeoutException, IOException {
        SendWr w = SendWr.rdmaWrite().id(1).local(t.src.sge(0, size)).remote(t.peer, 0).signaled();
        int i = 0;
        for (; i < samples.length && !cap.expired(); i++) {
            t.srcBytes.set(size - 1, Pattern.tag(i));
            long t0 = System.nanoTime();
            t.qp.postSend(w);
            Cq.awaitByte(t.landingBytes, size - 1, Pattern.tag(i), hang, qpDown, cq, awaitedByte);
            samples[i] = System.nanoTime() - t0;
            cq.awaitSend(hang);
        }
        return i;
    }

    private int readLat(long[] samples) throws TimeoutException {
        SendWr r = SendWr.rdmaRead().id(1).local(t.landing.sge(0, size)).remote(t.peer, 0).signaled();
        int i = 0;
        for (; i < samples.length && !cap.expired(); i++) {
            long t0 = System.nanoTime();
            t.qp.postSend(r);
            cq.awaitSend(hang);
            samples[i] = System.nanoTime() - t0;
        }
        return i;
    }

    private int sendLat(long[] samples) throws TimeoutException {
        SendWr s = SendWr.send().id(1).local(t.src.sge(0, size)).signaled();
        RecvWr r = RecvWr.of(2, t.landing.sge(0, size));
        t.qp.postRecv(r);
        int i = 0;
        for (; i < samples.length && !cap.expired(); i++) {
            long t0 = System.nanoTime();
            t.qp.postSend(s);
            boolean sent = false;
            boolean got = false;
            while (!got || !sent) {
                int n = cq.poll();
                for (int k = 0; k < n; k++) {
                    Completion c = cq.batch[k];
                    if (Cq.isRecv(c)) {
                        if (c.byteLength() != size) {
                            throw new IllegalStateException("reply " + i + " carried " + c.byteLength() + " bytes, expected " + size);
                        }
                        if (!got) {
                            samples[i] = System.nanoTime() - t0;
                        }
                        got = true;
                    } else {
                        sent = true;
                    }
                }
                if (n == 0) {
                    cq.idle(hang, reply.at(i));
                } else {
                    hang.progress();
                }
            }
            if (i + 1 < samples.length) {
                t.qp.postRecv(r);
            }
        }
        return i;
    }
}
