package io.jrnic.soft.engine;

import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.Terminate;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QpTrigger;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.DuplexChannel;
import java.util.concurrent.TimeUnit;

/**
 * How a {@link QpEngine}'s stream ends and what its work requests become: a Terminate sent or received (RFC 5040
 * section 4.8 and section 7: TERMINATE, then ERROR), the orderly close and the abortive one (section 6.2), the loss
 * of the LLP (RFC 5044 section 8), and the flush of every remaining WR with WR_FLUSH_ERROR in posting order.
 * Everything runs under the QP's lock, on its event loop, except the consumer's requests, which go there.
 */
final class StreamTeardown {
    /** How long the stream may stay half-open after a Terminate was sent. */
    static final long TERMINATE_CLOSE_MILLIS = 2_000;

    private final QpEngine qp;
    /** The consumer asked for an orderly close: the stream closes once the SQ drained. */
    boolean closeRequested;
    /** Flushing the SQ waits until no zero-copy WR's memory is still in the outbound buffer. */
    private boolean sendFlushDeferred;
    /** The engine shut the stream's output itself (FIN after a Terminate): the output shut event is no loss. */
    private boolean outputShutRequested;

    StreamTeardown(QpEngine qp) {
        this.qp = qp;
    }

    /** A new stream: nothing requested, nothing deferred from the last one's flush. */
    void rebind() {
        closeRequested = false;
        outputShutRequested = false;
    }

    // ---------------------------------------------------------------- Terminate (RFC 5040 sections 4.8 and 7)

    /**
     * This side found an error: send {@code t}, enter TERMINATE, retire {@code failingRq} with
     * {@code rqStatus} when it is the oldest receive, close the stream (then ERROR and flush).
     */
    void terminate(Terminate t, RqEntry failingRq, Status rqStatus) {
        if (qp.state != QpState.RTS && qp.state != QpState.CLOSING) {
            return;
        }
        qp.stream.stopReceiving();
        qp.apply(QpTrigger.TERMINATE_SENT, t, false); // TERMINATE first: nothing more is sent after the Terminate
        qp.tx.sendTerminate(t);
        if (failingRq != null && qp.rq.isOldest(failingRq)) {
            retireOldestRecv(rqStatus, t, false);
        }
        closeAfterTerminate();
    }

    /**
     * RFC 5040 section 6: the stream closes after a Terminate. Closing at once with unread input would
     * reset the connection and could destroy the Terminate in flight, so the output is shut (FIN after
     * the Terminate), input is discarded until the peer closes, and a timer closes in any case. The shut
     * waits until everything written before it has left the outbound buffer: Netty's shutdownOutput sends
     * the FIN at once and drops what is still queued, which under backpressure was the Terminate.
     */
    private void closeAfterTerminate() {
        if (qp.channel instanceof DuplexChannel d && d.isActive()) {
            afterWritten(written -> qp.locked(() -> {
                outputShutRequested = true;
                d.shutdownOutput();
            }));
            d.eventLoop().schedule(() -> {
                d.close();
            }, TERMINATE_CLOSE_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            qp.channel.close();
        }
    }

    private void retireOldestRecv(Status status, Terminate t, boolean received) {
        RqEntry e = qp.rq.pollFailed(qp.rx.untaggedCompletion);
        RecvInfo info = qp.recvInfo.clear();
        info.byteLength = (int) qp.rx.untaggedCompletion.messageLength();
        info.terminate = t;
        info.terminateReceived = received;
        qp.listener.recvRetired(e, status, info);
    }

    /** A Terminate arrived (RFC 5040 section 4.8): ERROR, the WR it names fails, the rest flush. */
    void terminateReceived(Terminate t) {
        QpState s = qp.state;
        if (s != QpState.RTS && s != QpState.CLOSING && s != QpState.TERMINATE) {
            return;
        }
        qp.stream.stopReceiving();
        qp.apply(QpTrigger.TERMINATE_RECEIVED, t, true);
        // in posting order: the WR the Terminate names fails with its status, the others flush
        boolean named = false;
        SqEntry e;
        while ((e = qp.sends.takeOldest()) != null) {
            if (!named && TerminateMatch.names(t, e)) {
                named = true;
                qp.listener.sendRetired(e, Status.ofReceivedTerminate(t.layer(), t.errorType()), 0, t, true);
            } else {
                qp.listener.sendRetired(e, Status.WR_FLUSH_ERROR, 0, null, false);
            }
        }
        flushAll();
        qp.channel.close();
    }

    // ---------------------------------------------------------------- the stream's lifetime (spec-notes/engine.md)

    /**
     * Every close of the bound stream's channel, whoever asked for it (the engine, the connection manager, a timer):
     * on the loop, holding the QP's ownership, so no in-place read or write is under way on the descriptor while it
     * closes, and none starts after (they run under the ownership and check that the channel is active). Netty never
     * closes a bound stream by itself: auto-close is off and half-closure on ({@link StreamBinding}), so a failed
     * write and the peer's FIN arrive as events ({@link #outputShut}, {@link #inputEnded}).
     */
    void closeOwned(io.netty.channel.ChannelHandlerContext ctx, io.netty.channel.ChannelPromise promise) {
        qp.lock.lock();
        try {
            ctx.close(promise);
        } finally {
            qp.lock.unlock();
        }
    }

    /*
     * The events below come from a stream's own Receiver. A QP that was reset and bound to a new stream may still hear
     * from its previous one (a late FIN, the Terminate timer's close): that stream is closed, the QP is not touched.
     */

    /** The stream failed (reset, read or write error): an LLP error (RFC 5044 section 8); closed by the owner. On the loop. */
    void streamLost(io.netty.channel.Channel ch) {
        qp.locked(() -> {
            if (qp.boundTo(ch)) {
                qp.stream.markLlpFailed();
            }
            ch.close();
        });
    }

    /** The peer's FIN shut the input (half-closure on): the stream closes (RFC 5040 section 6.2). On the loop. */
    void inputEnded(io.netty.channel.Channel ch) {
        qp.locked(ch::close);
    }

    /** The output was shut: a failed write (an LLP error) unless the engine shut it itself (FIN after a Terminate). */
    void outputShut(io.netty.channel.Channel ch) {
        qp.locked(() -> {
            if (!qp.boundTo(ch) || !outputShutRequested) {
                streamLost(ch);
            }
        });
    }

    /** The channel became inactive: the stream's end, an LLP error if it ended inside an FPDU. On the loop. */
    void channelInactive(io.netty.channel.Channel ch, java.util.function.BooleanSupplier endedInsideFpdu) {
        qp.locked(() -> {
            if (!qp.boundTo(ch)) {
                return; // a previous stream's end: the QP was reset and bound anew
            }
            if (endedInsideFpdu.getAsBoolean() && !qp.stream.rxStopped()) { // the decoder's state, read holding the token
                qp.stream.markLlpFailed(); // octets were lost, not an orderly close
            }
            streamClosed();
        });
    }

    // ---------------------------------------------------------------- close and loss (RFC 5040 section 6.2)

    /** The TCP stream closed (RFC 5040 section 6: LLP close or loss). */
    void streamClosed() {
        switch (qp.state) {
            case TERMINATE -> {
                qp.apply(QpTrigger.TERMINATE_DONE, null, false);
                flushAll();
            }
            case RTS, CLOSING -> {
                boolean clean = !qp.stream.llpFailed() && qp.sends.allRetired() && qp.inbox().nothingPosted();
                if (clean) {
                    if (qp.state == QpState.RTS) {
                        qp.apply(QpTrigger.CLOSE_STARTED, null, false);
                    }
                    qp.apply(QpTrigger.CLOSE_COMPLETED, null, false);
                    flushRecvs();
                } else {
                    qp.apply(QpTrigger.LLP_ERROR, null, false);
                    flushAll();
                }
            }
            default -> {
            }
        }
        if (qp.tx != null) {
            qp.tx.releaseBuffers();
        }
    }

    /**
     * The SQ drained: an orderly close the consumer asked for goes ahead (RFC 5040 section 6.2.1), once the
     * octets already queued have left: a copied WR retires when copied, and Netty's close drops what its
     * outbound buffer still holds. A peer that never reads meets the transmit stall timeout instead.
     */
    void sendsRetired() {
        if (closeRequested && qp.sends.allRetired() && qp.state == QpState.CLOSING) {
            closeRequested = false; // under way: later retirements do not close again
            qp.tx.flushNow();
            afterWritten(ChannelFutureListener.CLOSE);
        }
    }

    /** Runs {@code then} once everything written to the stream so far has left its outbound buffer (or failed). */
    private void afterWritten(ChannelFutureListener then) {
        qp.channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(then);
    }

    /**
     * Consumer disconnect (RFC 5040 section 6.2.1: orderly close): CLOSING, then close once the SQ drained. On the
     * loop ({@link QpEngine#execute}; a QP never bound is not in RTS, so nothing happens).
     */
    void disconnect() {
        qp.execute(() -> {
            if (qp.state == QpState.RTS) {
                qp.apply(QpTrigger.CLOSE_STARTED, null, false);
                closeRequested = true;
                qp.retireSends();
            }
        });
    }

    /**
     * The consumer moved the QP to ERROR (state already applied by the caller): send a Terminate if
     * connected (RDMAP local catastrophic), close the stream, flush every WR with WR_FLUSH_ERROR. On the loop
     * ({@link QpEngine#execute}; a QP never bound has no stream: it just flushes).
     */
    void abort() {
        qp.execute(() -> {
            QpState s = qp.state;
            qp.applyConsumers(QpTrigger.MODIFY_TO_ERROR);
            flushAll();
            if (qp.channel == null) {
                return;
            }
            if ((s == QpState.RTS || s == QpState.CLOSING) && qp.channel.isActive()) {
                qp.stream.stopReceiving();
                qp.tx.sendTerminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC));
                closeAfterTerminate();
            } else {
                qp.channel.close();
            }
        });
    }

    /** Abortive close (RFC 5040 section 6.2.2; connection manager abort): RST instead of FIN, an LLP error. */
    void abortStream() {
        qp.execute(() -> {
            if (qp.channel != null && qp.channel.isActive()) {
                reset();
            }
        });
    }

    /**
     * The transmitter's outbound buffer stayed above its low water mark for the transmit stall timeout (the peer
     * does not drain the stream): the stream is reset and lost as an LLP error (RFC 5044 section 8); the close
     * takes the QP to ERROR and flushes every WR. No Terminate: it could not pass the closed window. On the loop.
     */
    void transmitStalled(long timeoutMillis) {
        org.slf4j.LoggerFactory.getLogger("io.jrnic").warn(
                "stream {} not drained by the peer for {} ms (transmit stall timeout): reset, QP to ERROR",
                qp.channel.remoteAddress(), timeoutMillis);
        reset();
    }

    /** Closes the stream with an RST (SO_LINGER 0): its close is an LLP error. */
    private void reset() {
        qp.stream.markLlpFailed();
        qp.channel.config().setOption(ChannelOption.SO_LINGER, 0);
        qp.channel.close();
    }

    // ---------------------------------------------------------------- flush (RFC 5040 section 7.2)

    /**
     * Retires every remaining send and receive with WR_FLUSH_ERROR, in posting order. While zero-copy WRs
     * still have bytes in an open channel's outbound buffer (their memory is still read), the sends are
     * retired once those bytes have left it: a flushed WR's memory is the consumer's again.
     */
    void flushAll() {
        qp.sends.startNothingMore();
        qp.sends.forgetRequests();
        qp.inboundReads.clear();
        flushRecvs();
        if (qp.tx != null && qp.tx.onWire() > 0 && qp.channel.isOpen()) {
            qp.tx.flushNow(); // writes the mark the deferred flush waits for
            sendFlushDeferred = true;
        } else if (!sendFlushDeferred) {
            flushSends();
        }
    }

    /**
     * A zero-copy WR's bytes left the outbound buffer (or failed to): retire what is done, or run the SQ flush
     * that waited for the memory to be released ({@code drained}: nothing is on the wire any more).
     */
    void wireDrained(boolean drained) {
        if (sendFlushDeferred) {
            if (drained) {
                sendFlushDeferred = false;
                flushSends();
            }
        } else {
            qp.retireSends();
        }
    }

    /**
     * In IDLE: sends in the SQ were posted while the QP was in RTS and reached the owner only after the stream closed
     * in order (RFC 5040 section 6.2.1 leaves no stream for them); they complete with WR_FLUSH_ERROR instead of
     * waiting for a connection they were not posted to. Receives stay: an IDLE QP may take them for its next one.
     */
    void flushLateSends() {
        if (!qp.sends.allRetired() || !qp.inbox().nothingPosted()) {
            flushSends();
        }
    }

    private void flushSends() {
        qp.drainSends();
        SqEntry e;
        while ((e = qp.sends.takeOldest()) != null) {
            // a WR that already failed locally keeps its status; everything else is flushed
            boolean failed = e.done && e.status != Status.SUCCESS;
            qp.listener.sendRetired(e, failed ? e.status : Status.WR_FLUSH_ERROR, 0, null, false);
        }
        qp.inbox().flushPosted();
        qp.sends.startNothingMore();
    }

    private void flushRecvs() {
        RqEntry e;
        while ((e = qp.rq.pollFlushed()) != null) {
            qp.listener.recvRetired(e, Status.WR_FLUSH_ERROR, qp.recvInfo.clear());
        }
        if (qp.rx != null) {
            qp.rq.forgetBuffers(qp.rx.untaggedCompletion);
        }
    }
}
