package io.jrnic.conform.rping;

import io.jrnic.conform.Observation;
import io.jrnic.conform.wire.Session;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapOpcode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** What both raw rping peers share: the session, the MSN counters, message waits, the ping text. */
public abstract class RawPeer implements AutoCloseable {
    /** The payload size of our rping buffers: 62 octets, so that a Read Response has a 2-octet pad. */
    public static final int SIZE = 62;

    protected final Session session;
    protected final Duration timeout;
    /** Next MSN of our Sends (QN 0) and of our Read Requests (QN 1); RFC 5041 section 5.1: both start at 1. */
    public long sendMsn = 1;
    public long readMsn = 1;
    /** The Request and Reply as sent and received. */
    public SetupFrame request;
    public SetupFrame reply;
    public boolean crc;

    protected RawPeer(Session session, Duration timeout) {
        this.session = session;
        this.timeout = timeout;
    }

    public Session session() {
        return session;
    }

    /** Waits for a message with this opcode; anything else (a Terminate, a close, silence, another
     *  message) is returned as the observation. */
    public Step await(RdmapOpcode op) throws IOException {
        Session.Event e = session.next(timeout);
        if (e.kind() == Session.EventKind.MESSAGE && e.crcBad()) {
            return new Step(null, Observation.of(Observation.Kind.VIOLATED, "the target sent an FPDU with a bad CRC: "
                    + Terminates.describe(e.ulpdu()) + " (RFC 5044 section 4.4)"));
        }
        if (session.markerErrors() > 0) {
            return new Step(null, Observation.of(Observation.Kind.VIOLATED,
                    "the target's markers do not point at FPDU starts (RFC 5044 section 5)"));
        }
        if (e.kind() == Session.EventKind.MESSAGE && Ulpdus.is(e.ulpdu(), op)) {
            return new Step(e.ulpdu(), null);
        }
        if (e.kind() == Session.EventKind.MESSAGE && !Ulpdus.is(e.ulpdu(), RdmapOpcode.TERMINATE)) {
            return new Step(null, Observation.of(Observation.Kind.PROCEEDED, "expected " + op.rfcName() + ", got "
                    + Terminates.describe(e.ulpdu())));
        }
        return new Step(null, e.kind() == Session.EventKind.MESSAGE ? Terminates.decode(e.ulpdu())
                : Observation.of(switch (e.kind()) {
                    case CLOSED -> Observation.Kind.CLOSED;
                    case RESET -> Observation.Kind.RESET;
                    default -> Observation.Kind.SILENT;
                }, "waiting for " + op.rfcName()));
    }

    /** Sends a Send of this payload with the next MSN. */
    public void send(byte[] payload) throws IOException {
        session.sendUlpdu(Ulpdus.send(sendMsn++, payload));
    }

    /** Starts framing from the Request and Reply: CRC if either asks, markers per direction (RFC 5044 section 7.1.2). */
    protected void startFraming(boolean weAreInitiator) {
        crc = request.has(SetupFrame.C) || reply.has(SetupFrame.C);
        SetupFrame ours = weAreInitiator ? request : reply;
        SetupFrame theirs = weAreInitiator ? reply : request;
        session.startFraming(crc, theirs.has(SetupFrame.M), ours.has(SetupFrame.M));
    }

    /** The RTR type the Reply chose (RFC 6581 section 5), or NONE. */
    public RtrType chosenRtr() {
        MpaV2Words req = request.words();
        MpaV2Words rep = reply.words();
        if (req == null || rep == null || !req.p2p() || !rep.p2p()) {
            return RtrType.NONE;
        }
        return rep.sendRtr() ? RtrType.SEND : rep.writeRtr() ? RtrType.WRITE : rep.readRtr() ? RtrType.READ : RtrType.NONE;
    }

    /** rping's ping text: "rdma-ping-N: " and rotating letters, NUL-terminated, {@code size} octets. */
    public static byte[] pingText(int ping, int size) {
        byte[] b = new byte[size];
        byte[] head = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, b, 0, Math.min(head.length, size - 1));
        int c = 'A' + ping % 58;
        for (int i = head.length; i < size - 1; i++) {
            b[i] = (byte) c;
            c = c == 'z' ? 'A' : c + 1;
        }
        return b;
    }

    /** A protocol step the target got wrong in a way no case asks about (the tool stops the case). */
    public static final class TargetProtocolException extends IOException {
        public TargetProtocolException(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        session.close();
    }
}
