package io.jrnic.conform.rping;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.Observation;
import io.jrnic.conform.wire.Session;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;

/**
 * jrnic as a raw rping client against the target's {@code rping -s} (the initiator role). rping's ping:
 * we Send the descriptor {addr, rkey, size} of our source buffer; the target RDMA Reads it (its Read
 * Request names its own sink buffer: that is how a case learns a target STag and TO it may address);
 * we answer with the Read Response; the target Sends a go-ahead; we Send our sink descriptor; the target
 * RDMA Writes the text there and Sends a go-ahead. Our buffers exist only on the wire: the STags below.
 */
public final class RpingClientPeer extends RawPeer {
    public static final int SOURCE_STAG = 0x00C0DE01;
    public static final int SINK_STAG = 0x00C0DE02;
    public static final long SOURCE_TO = 0x10000000L;
    public static final long SINK_TO = 0x20000000L;

    private int ping;
    /** The target's sink buffer, from its last Read Request: STag, TO and the size it asked for. */
    public int targetStag;
    public long targetTo;
    public long targetReadSize;
    public boolean learned;

    private final java.time.Duration firstFpduDelay;

    private RpingClientPeer(Session s, CaseContext ctx) {
        super(s, ctx.timeout());
        this.firstFpduDelay = ctx.firstFpduDelay();
    }

    public static RpingClientPeer connect(CaseContext ctx) throws IOException {
        return new RpingClientPeer(ctx.connect(), ctx);
    }

    /** rping's Request: revision 2, H, IRD 1 and ORD 1 (RFC 6581), C as the run asks. */
    public static SetupFrame defaultRequest(CaseContext ctx) {
        return SetupFrame.v2(MpaSetupFrame.Kind.REQUEST, ctx.crc(), MpaV2Words.of(1, 1), 0);
    }

    /** Connects with rping's Request; null when the connection is up, else what the target did. */
    public static Observation open(CaseContext ctx, RpingClientPeer[] out) throws IOException {
        out[0] = connect(ctx);
        return out[0].establish(defaultRequest(ctx));
    }

    /** Sends the Request, reads the Reply, starts framing, sends the RTR the Reply chose. Null when up. */
    public Observation establish(SetupFrame req) throws IOException {
        return establish(req, req.encode());
    }

    /** As {@link #establish(SetupFrame)} with the Request's bytes as given (a case may cut or extend them). */
    public Observation establish(SetupFrame req, byte[] bytes) throws IOException {
        request = req;
        session.send(bytes);
        return awaitReply();
    }

    /** Reads the Reply to a Request already sent. Null when up. */
    public Observation awaitReply() throws IOException {
        byte[] raw = session.readSetupFrame(timeout);
        if (raw == null) {
            return Observation.of(switch (session.lastEnd()) {
                case CLOSED -> Observation.Kind.CLOSED;
                case RESET -> Observation.Kind.RESET;
                default -> Observation.Kind.SILENT;
            }, "no MPA Reply");
        }
        reply = SetupFrame.parse(raw);
        if (!reply.keyIs(MpaSetupFrame.Kind.REPLY)) {
            throw new TargetProtocolException("the target's Reply has a bad key: " + reply);
        }
        if (reply.has(SetupFrame.R)) {
            return Observation.of(Observation.Kind.REJECTED, "Reply with R: " + reply);
        }
        startFraming(true);
        if (!firstFpduDelay.isZero()) {
            try {
                Thread.sleep(firstFpduDelay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted");
            }
        }
        RtrType rtr = chosenRtr();
        switch (rtr) {
            case SEND -> session.sendUlpdu(Ulpdus.send(sendMsn++, new byte[0]));
            case WRITE -> session.sendUlpdu(Ulpdus.write(1, 0, new byte[0]));
            case READ -> {
                session.sendUlpdu(Ulpdus.readRequest(readMsn++, 0, 0, 0, 0, 0));
                Step s = await(RdmapOpcode.RDMA_READ_RESPONSE);
                if (!s.ok()) {
                    return s.instead();
                }
            }
            default -> {
            }
        }
        return null;
    }

    /** Our source descriptor, the first message of a ping. */
    public byte[] sourceDescriptor() {
        return Ulpdus.descriptor(SOURCE_TO, SOURCE_STAG, SIZE);
    }

    /** Sends the source descriptor as a plain Send. */
    public void advertiseSource() throws IOException {
        send(sourceDescriptor());
    }

    /** Waits for the target's Read Request of our source buffer and learns its sink. */
    public Step awaitReadRequest() throws IOException {
        Step s = await(RdmapOpcode.RDMA_READ_REQUEST);
        if (s.ok()) {
            ByteBuf b = Unpooled.wrappedBuffer(s.ulpdu());
            int h = 18;
            if (s.ulpdu().length < h + ReadRequestHeader.LENGTH) {
                throw new TargetProtocolException("the target's Read Request is " + s.ulpdu().length + " bytes");
            }
            targetStag = ReadRequestHeader.sinkStag(b, h);
            targetTo = ReadRequestHeader.sinkTaggedOffset(b, h);
            targetReadSize = ReadRequestHeader.readSize(b, h);
            learned = true;
        }
        return s;
    }

    /** The Read Response to the last Read Request, with the ping text. */
    public ByteBuf readResponse() {
        return Ulpdus.readResponse(targetStag, targetTo, pingText(ping, (int) targetReadSize));
    }

    /** Rest of the ping after the Read Response went out: go-ahead, sink descriptor, Write, go-ahead. */
    public Observation finishPing() throws IOException {
        Step s = await(RdmapOpcode.SEND);
        if (!s.ok()) {
            return s.instead();
        }
        send(Ulpdus.descriptor(SINK_TO, SINK_STAG, SIZE));
        s = await(RdmapOpcode.RDMA_WRITE);
        if (!s.ok()) {
            return s.instead();
        }
        s = await(RdmapOpcode.SEND);
        if (!s.ok()) {
            return s.instead();
        }
        ping++;
        return null;
    }

    /** One whole ping; null when it completed, else what the target did instead. */
    public Observation ping() throws IOException {
        advertiseSource();
        Step s = awaitReadRequest();
        if (!s.ok()) {
            return s.instead();
        }
        session.sendUlpdu(readResponse());
        return finishPing();
    }

    /** One ping as the proof that the target carried on: PROCEEDED, or what it did instead. */
    public Observation proceeds() throws IOException {
        Observation o = ping();
        return o != null ? o : Observation.of(Observation.Kind.PROCEEDED, "ping completed");
    }
}
