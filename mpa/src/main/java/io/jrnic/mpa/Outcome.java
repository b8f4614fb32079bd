package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * The result of one step of an {@link MpaHandshaker}.
 *
 * <ul>
 * <li>NEED_MORE: feed more bytes.</li>
 * <li>REQUEST_RECEIVED (responder): {@link #peerFrame()} holds the Request; call
 *     {@code accept} or {@code reject}.</li>
 * <li>DONE: {@link #parameters()}; the responder's {@link #toSend()} is its Reply.</li>
 * <li>FAILED: {@link #failure()}; {@link #toSend()} may hold a Reply to send first (a
 *     rejection, or the Reply before a Terminate), and {@link #parameters()} the framing to
 *     send that Terminate with when {@code failure().terminate()}.</li>
 * </ul>
 *
 * {@link #toSend()} is owned by the caller (write it, then it is released by the write, or
 * release it). {@link #bytesLeft()}: readable bytes left in the fed buffer after the frame;
 * they were not consumed and belong to the FPDU stream.
 */
public final class Outcome {
    public enum Status {
        NEED_MORE,
        REQUEST_RECEIVED,
        DONE,
        FAILED
    }

    static final Outcome NEED_MORE = new Outcome(Status.NEED_MORE, null, null, null, null, 0);

    private final Status status;
    private final ByteBuf toSend;
    private final MpaSetupFrame peerFrame;
    private final MpaParameters parameters;
    private final MpaFailure failure;
    private final int bytesLeft;

    Outcome(Status status, ByteBuf toSend, MpaSetupFrame peerFrame, MpaParameters parameters, MpaFailure failure,
            int bytesLeft) {
        this.status = status;
        this.toSend = toSend;
        this.peerFrame = peerFrame;
        this.parameters = parameters;
        this.failure = failure;
        this.bytesLeft = bytesLeft;
    }

    public Status status() {
        return status;
    }

    /** Bytes to send to the peer (a Reply), or null. */
    public ByteBuf toSend() {
        return toSend;
    }

    /** The peer's set-up frame, once received. */
    public MpaSetupFrame peerFrame() {
        return peerFrame;
    }

    public MpaParameters parameters() {
        return parameters;
    }

    public MpaFailure failure() {
        return failure;
    }

    public int bytesLeft() {
        return bytesLeft;
    }

    @Override
    public String toString() {
        return "Outcome[" + status + (failure != null ? " " + failure : "") + (parameters != null ? " " + parameters : "")
                + (toSend != null ? " send " + toSend.readableBytes() + "B" : "") + " left " + bytesLeft + "]";
    }
}
