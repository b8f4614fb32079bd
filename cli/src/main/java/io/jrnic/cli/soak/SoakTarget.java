package io.jrnic.cli.soak;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QpStateException;
import java.util.EnumMap;
import java.util.Map;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's side of one soak QP: a region the client WRITEs into and READs from (advertised in the MPA reply's
 * private data), a receive buffer for the client's SENDs, and a thread that answers each received SEND with a
 * 12-octet SEND of its own: the length and the CRC32C of what arrived, for the client to compare.
 */
final class SoakTarget implements AutoCloseable {
    /** Reply layout: int length, long CRC32C (big-endian). */
    static final int REPLY = 12;
    /**
     * A one-octet SEND holding this value is the client's goodbye: its QP is done, what follows is its orderly close
     * (every data SEND of one octet or more starts with 0). A QP that ends without it lost its client.
     */
    static final byte GOODBYE = 1;

    final CompletionQueue cq;
    final QueuePair qp;
    final MemoryRegion region;
    private final byte[] recv = new byte[SoakClient.REGION];
    private final MemoryRegion recvMr;
    private final byte[] reply = new byte[REPLY];
    private final MemoryRegion replyMr;
    private final Completion[] one = Completion.array(1);
    final AtomicLong verified = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    /** Set when the QP's connection ended (orderly or not): the answering thread leaves once the CQ is empty. */
    volatile boolean ended;
    /** The client said goodbye ({@link #GOODBYE}) before its QP ended. */
    volatile boolean goodbye;
    /** The QP's {@code transmitStallTimeouts} counter and state, read when it is closed. */
    long stallTimeouts;
    QpState endState;
    /** The asynchronous events raised on this QP. */
    final Map<AsyncEventType, Long> events = new EnumMap<>(AsyncEventType.class);

    SoakTarget(RdmaDevice dev, ProtectionDomain pd) {
        cq = dev.createCq(64);
        qp = pd.createQp(QpInit.rc(cq).maxSendWr(8).maxRecvWr(8));
        region = pd.register(new byte[SoakClient.REGION], Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
        recvMr = pd.register(recv, Access.LOCAL_WRITE);
        replyMr = pd.register(reply, Access.LOCAL_WRITE);
        qp.postRecv(RecvWr.of(0, recvMr.sge(0, recv.length)));
    }

    /** Answers SENDs until the connection ended and the CQ is drained, or {@code deadline} (System.nanoTime) passed. */
    void serve(long deadline) {
        try {
            while (System.nanoTime() - deadline < 0) {
                if (cq.poll(one, 0, 1) == 0) {
                    if (ended) {
                        return;
                    }
                    Thread.sleep(0, 100_000);
                    continue;
                }
                Completion c = one[0];
                if (c.status() == CompletionStatus.WR_FLUSH_ERROR) {
                    continue; // the QP left RTS: flushes are the end, not a failure; the connection's end sets ended
                }
                if (c.status() != CompletionStatus.SUCCESS) {
                    failures.incrementAndGet();
                    continue;
                }
                if (c.opcode() == CompletionOpcode.RECV) {
                    int len = c.byteLength();
                    ByteBuffer.wrap(reply).putInt(len).putLong(SoakClient.crc(recv, 0, len));
                    qp.postRecv(RecvWr.of(0, recvMr.sge(0, recv.length)));
                    qp.postSend(SendWr.send().local(replyMr, 0, REPLY).signaled());
                    if (len == 1 && recv[0] == GOODBYE) {
                        goodbye = true;
                    } else {
                        verified.incrementAndGet();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (QpStateException e) {
            // the wire took the QP out of RTS before the connection's end was reported: the end, not a failed WR
            // (the run's QP states and events say how it ended)
        } catch (RuntimeException e) {
            if (!ended) {
                failures.incrementAndGet(); // a post refused while the connection still stood
            }
        }
    }

    @Override
    public void close() {
        stallTimeouts = qp.stats().counter("transmitStallTimeouts");
        endState = qp.state();
        qp.close();
        cq.close();
        region.close();
        recvMr.close();
        replyMr.close();
    }
}
