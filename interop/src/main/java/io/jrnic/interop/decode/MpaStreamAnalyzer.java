package io.jrnic.interop.decode;

import io.jrnic.interop.pcap.StreamChunk;
import io.jrnic.interop.pcap.StreamListener;
import io.jrnic.interop.pcap.TcpFlow;
import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaSetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds MPA streams in reassembled TCP streams by their set-up frames (RFC 5044 section 7.1:
 * the Request key opens the Initiator's stream, the Reply key the Responder's), derives the
 * negotiated CRC and per-direction markers, then frames each direction's FPDUs and hands every
 * ULPDU to a {@link DdpRdmapChecker}. Connections whose streams do not start with a key are
 * ignored.
 */
public final class MpaStreamAnalyzer implements StreamListener {
    private static final byte[] REQ = "MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REP = "MPA ID Rep Frame".getBytes(StandardCharsets.US_ASCII);
    /** Bound on bytes held per direction while waiting for the other set-up frame. */
    static final int MAX_PENDING = 16 << 20;

    private final DecodeOptions options;
    private final DecodeSink sink;
    private final Map<TcpFlow, MpaDirection> current = new HashMap<>();
    private final List<MpaConnection> connections = new ArrayList<>();
    private int streams;

    public MpaStreamAnalyzer(DecodeOptions options, DecodeSink sink) {
        this.options = options;
        this.sink = sink;
    }

    /** Number of MPA streams found so far. */
    public int streams() {
        return streams;
    }

    @Override
    public void onStreamStart(TcpFlow flow, long frame, boolean fromSyn) {
        MpaDirection reverse = current.get(flow.reverse());
        MpaConnection c = reverse != null && reverse.conn.side(flow) == null ? reverse.conn : null;
        if (c == null) {
            c = new MpaConnection(this, flow);
            connections.add(c);
        }
        MpaDirection d = new MpaDirection(c, flow);
        c.attach(d);
        current.put(flow, d);
    }

    @Override
    public void onChunk(TcpFlow flow, StreamChunk chunk) {
        MpaDirection d = current.get(flow);
        if (d == null || d.ignored) {
            return;
        }
        if (d.dir == null) {
            setupBytes(d, chunk);
        } else {
            d.conn.fpduBytes(d, chunk.frame(), chunk.data(), 0, chunk.data().length);
        }
    }

    @Override
    public void onGap(TcpFlow flow, long streamOffset, long length, long frame) {
        MpaDirection d = current.get(flow);
        if (d == null || d.ignored) {
            return;
        }
        d.ignored = true;
        if (d.conn.stream >= 0) {
            report(new Violation(Check.CAPTURE_INCOMPLETE, d.conn.stream, d.dir, frame, -1, length
                    + " bytes of the TCP stream were not captured at TCP offset " + streamOffset
                    + "; the rest of this direction is not decoded"));
        }
    }

    /** End of capture: reports what could not be completed. Call after the reassembler's finish. */
    public void finish() {
        for (MpaConnection c : connections) {
            c.finish();
        }
    }

    private void setupBytes(MpaDirection d, StreamChunk chunk) {
        if (d.setup == null) {
            d.setup = Unpooled.buffer(64);
        }
        d.setup.writeBytes(chunk.data());
        ByteBuf b = d.setup;
        int n = Math.min(b.readableBytes(), REQ.length);
        boolean req = true;
        boolean rep = true;
        for (int i = 0; i < n; i++) {
            byte x = b.getByte(b.readerIndex() + i);
            req &= x == REQ[i];
            rep &= x == REP[i];
        }
        if (!req && !rep) {
            d.ignored = true;
            release(d);
            return;
        }
        if (n < REQ.length) {
            return;
        }
        MpaConnection c = d.conn;
        if (c.stream < 0) {
            c.stream = streams++;
        }
        Direction dir = req ? Direction.I2R : Direction.R2I;
        MpaSetupFrame f;
        try {
            f = MpaSetupFrame.decode(b, req ? MpaSetupFrame.Kind.REQUEST : MpaSetupFrame.Kind.REPLY,
                    options.maxPrivateData());
        } catch (MpaException e) {
            report(new Violation(Check.SETUP_INVALID, c.stream, dir, chunk.frame(), -1, e.getMessage()));
            d.ignored = true;
            release(d);
            return;
        }
        if (f == null) {
            if (b.readableBytes() > 20 + options.maxPrivateData()) {
                d.ignored = true;  // cannot happen: decode checks PD_Length; defensive bound
                release(d);
            }
            return;
        }
        int leftover = b.readableBytes();
        d.fpduBase = chunk.end() - leftover;
        byte[] rest = new byte[leftover];
        b.readBytes(rest);
        release(d);
        c.setupFrame(d, dir, f, chunk.frame());
        if (leftover > 0) {
            int fromThisChunk = Math.min(leftover, chunk.data().length);
            report(new Violation(Check.SETUP_PIPELINED, c.stream, dir, chunk.frame(), 0, fromThisChunk
                    + " FPDU bytes follow the " + (req ? "Request" : "Reply") + " in the same TCP segment"));
            c.fpduBytes(d, chunk.frame(), rest, 0, rest.length);
        }
    }

    private static void release(MpaDirection d) {
        if (d.setup != null) {
            d.setup.release();
            d.setup = null;
        }
    }

    void report(Violation v) {
        sink.onViolation(v);
    }

    DecodeSink sink() {
        return sink;
    }

    DecodeOptions options() {
        return options;
    }
}
