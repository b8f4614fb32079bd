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
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;

/**
 * jrnic as a raw rping server for the target's {@code rping -c} (the responder role): we read its
 * Request and answer with a Reply (per case), it Sends the descriptor of its source buffer (that is how
 * a case learns a target STag and TO), we RDMA Read it, Send a go-ahead, it Sends its sink descriptor,
 * we RDMA Write the text there and Send a go-ahead.
 */
public final class RpingServerPeer extends RawPeer {
    public static final int SINK_STAG = 0x00C0DE11;
    public static final long SINK_TO = 0x30000000L;

    /** The client's source buffer, from its first descriptor. */
    public int clientStag;
    public long clientTo;
    public int clientSize;
    private final CaseContext ctx;

    private RpingServerPeer(Session s, CaseContext ctx) {
        super(s, ctx.timeout());
        this.ctx = ctx;
    }

    public static RpingServerPeer accept(CaseContext ctx) throws IOException {
        return new RpingServerPeer(ctx.accept(), ctx);
    }

    /** Reads the client's Request; null when it arrived, else what happened instead. */
    public Observation awaitRequest() throws IOException {
        byte[] raw = session.readSetupFrame(timeout);
        if (raw == null) {
            return Observation.of(Observation.Kind.UNREACHABLE, "no MPA Request from the target's client ("
                    + session.lastEnd() + ")");
        }
        request = SetupFrame.parse(raw);
        if (!request.keyIs(MpaSetupFrame.Kind.REQUEST)) {
            throw new TargetProtocolException("the target's Request has a bad key: " + request);
        }
        return null;
    }

    /**
     * The Reply rping's server would send: the Request's revision, H and IRD/ORD 1 when the Request has
     * H, C when the Request or the run asks, and with P2P the first of WRITE, READ, SEND offered.
     */
    public SetupFrame defaultReply() {
        MpaV2Words w = request.words();
        boolean c = request.has(SetupFrame.C) || ctx.crc();
        if (w == null) {
            SetupFrame f = SetupFrame.v1(MpaSetupFrame.Kind.REPLY, c, 0);
            f.revision = request.revision == 2 ? 2 : 1;
            return f;
        }
        RtrType rtr = !w.p2p() ? RtrType.NONE : w.writeRtr() ? RtrType.WRITE : w.readRtr() ? RtrType.READ
                : w.sendRtr() ? RtrType.SEND : RtrType.NONE;
        return SetupFrame.v2(MpaSetupFrame.Kind.REPLY, c, MpaV2Words.withRtr(1, 1, w.p2p() && rtr != RtrType.NONE, rtr), 0);
    }

    /** Sends the Reply as given, starts framing, takes the client's RTR when P2P was chosen. Null when up. */
    public Observation reply(SetupFrame f) throws IOException {
        return reply(f, f.encode());
    }

    /** As {@link #reply(SetupFrame)} with the Reply's bytes as given. */
    public Observation reply(SetupFrame f, byte[] bytes) throws IOException {
        reply = f;
        session.send(bytes);
        startFraming(false);
        RtrType rtr = chosenRtr();
        if (rtr != RtrType.NONE) {
            RdmapOpcode op = rtr == RtrType.SEND ? RdmapOpcode.SEND : rtr == RtrType.WRITE ? RdmapOpcode.RDMA_WRITE
                    : RdmapOpcode.RDMA_READ_REQUEST;
            Step s = await(op);
            if (!s.ok()) {
                return s.instead();
            }
            if (rtr == RtrType.READ) {
                session.sendUlpdu(Ulpdus.readResponse(0, 0, new byte[0]));
            }
        }
        return null;
    }

    /** Accepts the client with {@link #defaultReply()}; null when up. */
    public static Observation open(CaseContext ctx, RpingServerPeer[] out) throws IOException {
        out[0] = accept(ctx);
        Observation o = out[0].awaitRequest();
        return o != null ? o : out[0].reply(out[0].defaultReply());
    }

    /** Waits for the client's source descriptor and learns its buffer. */
    public Step awaitSourceDescriptor() throws IOException {
        Step s = await(RdmapOpcode.SEND);
        if (s.ok()) {
            if (s.ulpdu().length != 18 + 16) {
                throw new TargetProtocolException("the client's descriptor is " + (s.ulpdu().length - 18) + " octets, not 16");
            }
            ByteBuf b = Unpooled.wrappedBuffer(s.ulpdu());
            clientTo = b.getLong(18);
            clientStag = b.getInt(26);
            clientSize = b.getInt(30);
        }
        return s;
    }

    /** Reads the client's source buffer; null when the Read Response arrived. */
    public Observation readSource() throws IOException {
        session.sendUlpdu(Ulpdus.readRequest(readMsn++, SINK_STAG, SINK_TO, clientSize, clientStag, clientTo));
        Step s = await(RdmapOpcode.RDMA_READ_RESPONSE);
        return s.ok() ? null : s.instead();
    }

    /** rping's go-ahead: a 16-octet Send. */
    public void goAhead() throws IOException {
        send(new byte[16]);
    }

    /** Go-ahead, the sink descriptor, our Write, the last go-ahead; null when done. */
    public Observation finishPing() throws IOException {
        goAhead();
        Step s = await(RdmapOpcode.SEND);
        if (!s.ok()) {
            return s.instead();
        }
        ByteBuf b = Unpooled.wrappedBuffer(s.ulpdu());
        long to = b.getLong(18);
        int stag = b.getInt(26);
        int size = b.getInt(30);
        session.sendUlpdu(Ulpdus.write(stag, to, pingText(0, Math.max(1, Math.min(size, clientSize)))));
        goAhead();
        return null;
    }

    /** The rest of a ping from the descriptor on, as the proof that the client carried on. */
    public Observation proceeds() throws IOException {
        Step s = awaitSourceDescriptor();
        if (!s.ok()) {
            return s.instead();
        }
        Observation o = readSource();
        if (o == null) {
            o = finishPing();
        }
        return o != null ? o : Observation.of(Observation.Kind.PROCEEDED, "ping completed");
    }
}
