package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;

/**
 * MPA connection set-up as a state machine free of I/O and threads (RFC 5044 section 7.1,
 * RFC 6581). Feed it the bytes read from the socket; it never consumes a byte beyond the
 * peer's set-up frame. The caller owns the timer and calls {@link #onTimeout()}.
 */
public abstract sealed class MpaHandshaker permits MpaInitiator, MpaResponder {
    enum State {
        INITIAL,
        AWAIT_FRAME,
        AWAIT_DECISION,
        DONE,
        FAILED
    }

    protected final MpaOptions options;
    State state = State.INITIAL;
    private ByteBuf frame; // the peer's frame, gathered
    private Outcome last = Outcome.NEED_MORE;

    MpaHandshaker(MpaOptions options) {
        this.options = options;
    }

    public MpaOptions options() {
        return options;
    }

    /** The timeout the caller should arm: the option, or the role's default. */
    public Duration timeout() {
        return options.timeout() != null ? options.timeout() : defaultTimeout();
    }

    abstract Duration defaultTimeout();

    /** Consumes at most the peer's set-up frame from {@code in}. */
    public abstract Outcome feed(ByteBuf in);

    /** The deadline passed: FAILED with TIMEOUT unless already DONE or FAILED. */
    public Outcome onTimeout() {
        if (state == State.DONE || state == State.FAILED) {
            return last;
        }
        return fail(new MpaFailure(MpaFailure.Reason.TIMEOUT, null, false, null, "no MPA set-up frame in time"),
                null, null, 0);
    }

    /** The TCP stream ended: FAILED with CONNECTION_CLOSED (LLP 0x01) unless already finished. */
    public Outcome onConnectionClosed() {
        if (state == State.DONE || state == State.FAILED) {
            return last;
        }
        return fail(new MpaFailure(MpaFailure.Reason.CONNECTION_CLOSED, LlpError.TCP_CONNECTION_LOST, false, null,
                "stream ended during MPA set-up"), null, null, 0);
    }

    /** The last outcome returned. */
    public Outcome outcome() {
        return last;
    }

    public boolean isFinished() {
        return state == State.DONE || state == State.FAILED;
    }

    void expect(State s, String what) {
        if (state != s) {
            throw new IllegalStateException(what + " in state " + state);
        }
    }

    /**
     * Gathers the peer's frame from successive reads, taking from {@code in} no byte beyond the
     * frame's end; returns it when whole, else null (NEED_MORE, or a failure recorded).
     */
    MpaSetupFrame decode(ByteBuf in, MpaSetupFrame.Kind kind) {
        if (frame == null) {
            frame = Unpooled.wrappedBuffer(new byte[MpaSetupFrame.HEADER_LENGTH]).clear();
        }
        try {
            while (true) {
                int have = frame.writerIndex();
                int target = MpaSetupFrame.HEADER_LENGTH
                        + (have < MpaSetupFrame.HEADER_LENGTH ? 0 : frame.getUnsignedShort(MpaSetupFrame.PD_LENGTH_OFFSET));
                int n = Math.min(target - have, in.readableBytes());
                if (frame.capacity() < target) {
                    frame = Unpooled.wrappedBuffer(new byte[target]).clear().writeBytes(frame);
                }
                frame.writeBytes(in, n);
                MpaSetupFrame f = MpaSetupFrame.decode(frame.duplicate(), kind, options.receivePrivateDataLimit());
                if (f != null || !in.isReadable()) {
                    return f;
                }
            }
        } catch (MpaException e) {
            fail(MpaFailure.of(e), null, null, in.readableBytes());
            return null;
        }
    }

    Outcome fail(MpaFailure f, ByteBuf toSend, MpaParameters framing, int left) {
        state = State.FAILED;
        return last = new Outcome(Outcome.Status.FAILED, toSend, null, framing, f, left);
    }

    Outcome set(Outcome o) {
        return last = o;
    }

    /** Strict timing (RFC 5044 section 7.1.1, the default): bytes after the peer's frame fail the set-up. */
    Outcome timingViolation(int left) {
        return fail(new MpaFailure(MpaFailure.Reason.BYTES_AFTER_SETUP_FRAME, LlpError.INVALID_SETUP_FRAME, false,
                null, left + " bytes followed the set-up frame"), null, null, left);
    }

    static ByteBuf encode(MpaSetupFrame f) {
        ByteBuf b = Unpooled.buffer(f.encodedLength());
        f.encode(b);
        return b;
    }

    /**
     * Fits our IRD/ORD to the peer's (RFC 6581 section 5): our ORD must not exceed the peer's
     * IRD, nor the peer's ORD our IRD. Relaxed: lower our ORD, raise our IRD up to maxIrd.
     *
     * @return {ird, ord, fits (1 or 0)}: when they cannot fit (INSUFFICIENT_IRD), the closest
     *     values (relaxed: IRD at maxIrd)
     */
    int[] fitIrdOrd(int ird, int ord, MpaV2Words peer) {
        if (peer == null) {
            return new int[] {ird, ord, 1};
        }
        if (options.relaxedIrdOrd()) {
            ord = Math.min(ord, peer.ird());
            ird = Math.max(ird, peer.ord());
            return ird <= options.maxIrd() ? new int[] {ird, ord, 1} : new int[] {options.maxIrd(), ord, 0};
        }
        return new int[] {ird, ord, ord <= peer.ird() && peer.ord() <= ird ? 1 : 0};
    }

    static MpaFailure insufficientIrd(MpaV2Words peer, int ird, int ord, byte[] pd) {
        return new MpaFailure(MpaFailure.Reason.INSUFFICIENT_IRD, LlpError.INSUFFICIENT_IRD, true, pd,
                "peer IRD/ORD " + peer.ird() + "/" + peer.ord() + " cannot fit local " + ird + "/" + ord);
    }
}
