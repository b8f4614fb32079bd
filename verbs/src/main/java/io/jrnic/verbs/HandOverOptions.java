package io.jrnic.verbs;

import java.util.Objects;

/**
 * Immutable options of a stream hand-over (the "RDMA mode transition" of an already connected TCP
 * stream, RFC 5044 section 7.1: MPA set-up starts at the point both upper layers agreed on).
 * Same MPA options as the connection manager ({@link ConnectOptions}); the side's role is explicit
 * because no TCP connect decides it. Initiator: sends the MPA Request, MPA Reply timer. Responder:
 * waits for the Request (MPA Request timer), shows it to {@link #decider()} which accepts or rejects.
 */
public final class HandOverOptions {
    /** Which MPA role this side plays on the handed-over stream. */
    public enum Role { INITIATOR, RESPONDER }

    /** The responder's decision on the initiator's Request, run on the device event thread. */
    @FunctionalInterface
    public interface Decider {
        /** {@code offered}: what the Request carries (private data, IRD/ORD, CRC, markers, RTR types). */
        HandOverVerdict decide(ConnectionParams offered);
    }

    private static final Decider ACCEPT_ALL = offered -> HandOverVerdict.accept(AcceptOptions.defaults());

    private final Role role;
    private final ConnectOptions options;
    private final Decider decider;
    private final boolean returnChannelOnFailure;

    private HandOverOptions(Role role, ConnectOptions options, Decider decider, boolean returnChannelOnFailure) {
        this.role = Objects.requireNonNull(role);
        this.options = Objects.requireNonNull(options);
        this.decider = Objects.requireNonNull(decider);
        this.returnChannelOnFailure = returnChannelOnFailure;
    }

    /** This side sends the MPA Request with {@code options} (private data, IRD/ORD, CRC, markers, P2P RTR). */
    public static HandOverOptions initiator(ConnectOptions options) {
        return new HandOverOptions(Role.INITIATOR, options, ACCEPT_ALL, false);
    }

    /** This side waits for the MPA Request and answers per {@code options}; accepts every Request by default. */
    public static HandOverOptions responder(ConnectOptions options) {
        return new HandOverOptions(Role.RESPONDER, options, ACCEPT_ALL, false);
    }

    /** Responder: decides on the Request (accept with {@link AcceptOptions}, or reject with private data). */
    public HandOverOptions onRequest(Decider d) {
        return new HandOverOptions(role, options, d, returnChannelOnFailure);
    }

    /**
     * On failure, hand the stream back open instead of closing it, when no byte was consumed (nothing
     * in {@code alreadyRead}, nothing read from the stream, nothing buffered in removed handlers) and
     * no Reply was sent: in practice the MPA timer expiring. Default false: every failure closes.
     */
    public HandOverOptions returnChannelOnFailure(boolean v) {
        return new HandOverOptions(role, options, decider, v);
    }

    /**
     * The RFC 5044 section 7.1.1 timing rule (the connect options' {@link ConnectOptions#lenientTiming},
     * inverted): bytes following the peer's set-up frame before they are allowed (an FPDU right
     * behind the Request, or behind the Reply) fail the set-up with BYTES_AFTER_SETUP_FRAME, LLP 0x04.
     * Default true; false keeps such bytes, in order, and feeds them to the QP once it is bound.
     */
    public HandOverOptions strictTiming(boolean v) {
        return new HandOverOptions(role, options.lenientTiming(!v), decider, returnChannelOnFailure);
    }

    public Role role() {
        return role;
    }

    public boolean isInitiator() {
        return role == Role.INITIATOR;
    }

    public ConnectOptions connectOptions() {
        return options;
    }

    public Decider decider() {
        return decider;
    }

    public boolean returnChannelOnFailure() {
        return returnChannelOnFailure;
    }

    public boolean strictTiming() {
        return !options.lenientTiming();
    }

    @Override
    public String toString() {
        return "HandOverOptions[" + role + " " + options + " return=" + returnChannelOnFailure + " strict=" + strictTiming()
                + "]";
    }
}
