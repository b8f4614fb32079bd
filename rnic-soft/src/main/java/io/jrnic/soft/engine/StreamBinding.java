package io.jrnic.soft.engine;

import io.jrnic.mpa.RtrType;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QpTrigger;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import java.util.concurrent.TimeUnit;

/**
 * How a {@link QpEngine} takes up an MPA stream whose set-up is complete, and when it may first transmit on it: the
 * data-phase handler replaces the handshake's, the QP moves to RTS, and MPA's timing rule holds back the first FPDUs
 * (RFC 5044 section 7.1): the responder sends none before the initiator's first FPDU arrived, the initiator sends
 * its RTR first (RFC 6581 section 5) or waits out the first-FPDU delay. {@link #unbind} forgets the stream.
 *
 * <p>Its fields are guarded by the QP's lock, as is the engine state {@link #bind} sets: {@link #bind} takes it on
 * the channel's event loop, the rest runs under it (the Receiver, the Transmitter, timers via {@link QpEngine#locked})
 * and {@link #unbind} (RESET_TO_IDLE, on the consumer's thread) takes it too.
 */
final class StreamBinding {
    private final QpEngine qp;
    /** Responder: no FPDU may be sent before the initiator's first FPDU arrives (RFC 5044 section 7.1). */
    private boolean txGated;
    /** Initiator: RTR (or the first-FPDU delay) still pending. */
    private boolean rtrPending;
    private Runnable firstFpduCallback;

    StreamBinding(QpEngine qp) {
        this.qp = qp;
    }

    /** See {@link QpEngine#bind}. */
    void bind(Channel ch, StreamParams p, String afterHandler, ByteBuf leftover, Runnable onFirstFpdu,
            Runnable onStreamEnd) {
        qp.lock.lock();
        try {
            bindLocked(ch, p, afterHandler, leftover, onFirstFpdu, onStreamEnd);
        } finally {
            qp.lock.unlock();
        }
    }

    private void bindLocked(Channel ch, StreamParams p, String afterHandler, ByteBuf leftover, Runnable onFirstFpdu,
            Runnable onStreamEnd) {
        if (qp.state != QpState.IDLE) {
            if (leftover != null) {
                leftover.release();
            }
            throw new IllegalStateException("QP is " + qp.state + ", not IDLE");
        }
        Receiver rx = new Receiver(qp, p, onStreamEnd);
        qp.attach(ch, p, new Transmitter(qp, ch, p), rx);
        this.txGated = !p.initiator();
        this.rtrPending = p.initiator() && (p.rtr() != RtrType.NONE || p.firstFpduDelayMillis() > 0);
        this.firstFpduCallback = onFirstFpdu;
        qp.teardown.rebind();
        qp.rq.rebind();
        // the data phase reads 512 B to 1 MiB at a time when the channel was made with a LoopReadGate (its
        // allocator); an FPDU cut by a chunk boundary costs a copy into the decoder's staging buffer
        ChannelPipeline pl = ch.pipeline();
        // the stream's lifetime is the QP owner's (StreamTeardown.closeOwned): Netty reports a failed write and the peer's
        // FIN as events instead of closing the descriptor by itself under an in-place read or write
        ch.config().setAutoClose(false);
        ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        pl.replace(afterHandler, "receiver", rx);
        qp.tx.enableInPlace(rx);
        ReceiveInPlace rip = qp.tx.inPlaceCapable() ? ReceiveInPlace.of(qp, ch, rx) : null;
        if (rip != null) {
            rip.gate().attach(qp.lock, rx.direct());
            rx.direct().enable(); // both read paths can land in registered memory
        }
        qp.receiveInPlaceWith(rip);
        qp.apply(QpTrigger.CONNECTED, null, false);
        qp.drainRecvs();
        qp.drainSends();
        if (p.initiator()) {
            if (p.firstFpduDelayMillis() > 0) {
                qp.loop.schedule(() -> qp.locked(this::sendRtr), p.firstFpduDelayMillis(), TimeUnit.MILLISECONDS);
            } else {
                sendRtr();
            }
        }
        if (leftover != null) {
            try {
                if (leftover.isReadable()) {
                    rx.feed(leftover);
                }
            } finally {
                leftover.release();
            }
        }
        qp.inbox().scheduleDrain();
    }

    private void sendRtr() {
        if (qp.state != QpState.RTS && qp.state != QpState.CLOSING) {
            return;
        }
        rtrPending = false;
        qp.tx.sendRtr(qp.params.rtr());
        qp.tx.pump();
    }

    /** The initiator's first FPDU arrived: the responder may transmit (RFC 5044 section 7.1). */
    void firstFpduReceived() {
        if (txGated) {
            txGated = false;
            Runnable cb = firstFpduCallback;
            firstFpduCallback = null;
            if (cb != null) {
                cb.run();
            }
        }
    }

    /** MPA's timing rule no longer holds this side back (RFC 5044 section 7.1): first FPDU received, RTR sent. */
    boolean firstFpdusExchanged() {
        return !txGated && !rtrPending;
    }

    /** See {@link QpEngine#reset}: under the QP's ownership, as every other change of its state. */
    void unbind() {
        qp.lock.lock();
        try {
            if (qp.state != QpState.IDLE) {
                qp.applyConsumers(QpTrigger.RESET_TO_IDLE); // from ERROR only: the verbs layer checked it
            }
            ReceiveInPlace r = qp.rxInPlace;
            qp.receiveInPlaceWith(null);
            if (r != null) {
                r.gate().attach(null);
            }
        } finally {
            qp.lock.unlock();
        }
    }
}
