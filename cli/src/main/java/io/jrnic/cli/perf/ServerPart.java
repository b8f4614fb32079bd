package io.jrnic.cli.perf;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** The server's half of each test, run once the client's RDMA connection is established. */
final class ServerPart {
    private final ServerTest t;
    private final Deadline d;
    private final Cq cq;
    private final int size;
    /** Made once: a method reference per message would be an allocation on the measured path. */
    private final Cq.Check abort = this::abortReason;
    private final Waiting awaitedByte = new Waiting("byte ", " to become ", "");

    ServerPart(ServerTest t, Deadline d) {
        this.t = t;
        this.d = d;
        this.cq = new Cq(t.cq, Cq.Wait.of(t.test.kind()));
        this.size = t.test.size();
    }

    /** Null when the server's part passed (including its data verification). */
    String run() throws IOException {
        try {
            return switch (t.test.op()) {
                case WRITE -> t.test.kind().bandwidth() ? writeBw() : writeLat();
                case SEND -> t.test.kind().bandwidth() ? sendBw() : sendLat();
                case READ -> t.targetBytes.check("server buffer after READs", 0, size);
            };
        } catch (TimeoutException e) {
            return "server: " + e.getMessage();
        } catch (Cq.WorkFailed e) {
            return "server: " + e.getMessage();
        }
    }

    private String abortReason() throws IOException {
        if (t.qp.state() != QpState.RTS) {
            return "server QP left RTS: " + t.qp.state();
        }
        return t.endArrived() ? "client ended early" : null;
    }

    /** Waits for the fence SEND, then checks every byte the WRITEs placed. */
    private String writeBw() throws TimeoutException, IOException {
        while (cq.poll() == 0) {
            if (t.endArrived() && t.endCount < 0) {
                return "client failed before its fence SEND";
            }
            cq.idle(d, "the fence SEND after the RDMA WRITEs");
        }
        t.served(-1);
        return t.targetBytes.check("server buffer after RDMA WRITEs", 0, size);
    }

    /** Receives, reposts, grants credits by the control channel, checks lengths and the slots' bytes. */
    private String sendBw() throws TimeoutException, IOException {
        long iters = t.test.iterations();
        int slots = t.slotCount;
        long posted = slots;
        long received = 0;
        String what = null; // what a timeout names, built once per idle streak (not per empty poll)
        int credit = 0;
        int creditEvery = Math.max(1, slots / 2);
        RecvWr[] repost = new RecvWr[cq.batch.length];
        while (received < (t.endCount != null ? Math.min(iters, clientCount(t.endCount)) : iters)) {
            if (t.endCount != null && t.endCount < 0) {
                return "server: the client failed after " + received + " SENDs arrived";
            }
            int n = cq.poll();
            int k = 0;
            for (int i = 0; i < n; i++) {
                Completion c = cq.batch[i];
                if (!Cq.isRecv(c)) {
                    continue;
                }
                if (c.byteLength() != size) {
                    return "server: SEND " + received + " delivered " + c.byteLength() + " bytes, expected " + size;
                }
                received++;
                if (posted < iters) {
                    repost[k++] = t.recvs[(int) c.id()];
                    posted++;
                    credit++;
                }
            }
            if (k > 0) {
                // one post (one engine wake-up) per polled batch
                if (k == 1) {
                    t.qp.postRecv(repost[0]);
                } else {
                    t.qp.postRecv(java.util.Arrays.copyOf(repost, k));
                }
            }
            if (credit >= creditEvery || (credit > 0 && posted == iters)) {
                t.ctl.credit(credit);
                credit = 0;
            }
            if (n == 0) {
                if (t.endCount == null) {
                    t.endArrived();
                }
                if (what == null) {
                    what = "SEND " + received + " of " + iters;
                }
                cq.idle(d, what);
            } else {
                what = null;
                d.progress();
            }
        }
        t.served(received);
        for (int s = 0; s < Math.min(received, slots); s++) {
            String bad = t.slotBytes.check("server receive slot " + s, s * size, size);
            if (bad != null) {
                return bad;
            }
        }
        return null;
    }

    /** ib_write_lat's responder: wait for the tag in the last byte, write the buffer back. */
    private String writeLat() throws TimeoutException, IOException {
        if (t.clientBuffer() == null || t.clientBuffer().length() < size) {
            return "server: the client advertised no buffer of " + size + " bytes";
        }
        SendWr w = SendWr.rdmaWrite().id(1).local(t.target.sge(0, size)).remote(t.clientBuffer(), 0).signaled();
        long iters = t.test.iterations();
        long i = 0;
        boolean inFlight = false;
        try {
            for (; i < iters; i++) {
                Cq.awaitByte(t.targetBytes, size - 1, Pattern.tag(i), d, abort, cq, awaitedByte);
                inFlight = reap(inFlight);
                t.qp.postSend(w);
                inFlight = true;
            }
        } catch (TimeoutException e) {
            if (t.endCount == null) {
                throw e;
            }
        }
        t.served(i);
        while (inFlight) {
            inFlight = reap(true);
        }
        if (i == 0) {
            return null;
        }
        String bad = t.targetBytes.check("server buffer after RDMA WRITE ping-pong", 0, size - 1);
        return bad != null ? bad : t.targetBytes.get(size - 1) == Pattern.tag(i - 1) ? null
                : "server: last byte " + t.targetBytes.get(size - 1) + " is not the tag of iteration " + (i - 1);
    }

    /** SEND ping-pong responder: receive, repost, echo the slot back. */
    private String sendLat() throws TimeoutException, IOException {
        SendWr s = SendWr.send().id(1).local(t.slots.sge(0, size)).signaled();
        long iters = t.test.iterations();
        long i = 0;
        boolean sendInFlight = false;
        while (i < iters) {
            int n = cq.poll();
            boolean got = false;
            for (int k = 0; k < n; k++) {
                Completion c = cq.batch[k];
                if (Cq.isRecv(c)) {
                    if (c.byteLength() != size) {
                        return "server: SEND " + i + " delivered " + c.byteLength() + " bytes, expected " + size;
                    }
                    got = true;
                } else {
                    sendInFlight = false;
                }
            }
            if (got) {
                d.progress();
                i++;
                if (i < iters) {
                    t.qp.postRecv(t.recvs[0]);
                }
                sendInFlight = reap(sendInFlight);
                t.qp.postSend(s);
                sendInFlight = true;
            } else if (n == 0) {
                if (t.endArrived() && (t.endCount < 0 || t.endCount <= i)) {
                    break;
                }
                cq.idle(d, "a SEND of the ping-pong");
            }
        }
        t.served(i);
        while (sendInFlight) {
            sendInFlight = reap(true);
        }
        return i == 0 ? null : t.slotBytes.check("server receive slot after SEND ping-pong", 0, size);
    }

    /** The client's iteration count from its END (which is negative when the client failed). */
    static long clientCount(long end) {
        return end < 0 ? -1 - end : end;
    }

    /** If a send is in flight, waits for its completion; returns false (nothing in flight). */
    private boolean reap(boolean inFlight) throws TimeoutException {
        while (inFlight) {
            int n = cq.poll();
            for (int k = 0; k < n; k++) {
                if (!Cq.isRecv(cq.batch[k])) {
                    inFlight = false;
                }
            }
            if (inFlight) {
                cq.idle(d, "a send completion");
            }
        }
        return false;
    }
}
