package io.jrnic.interop.decode;

import io.jrnic.interop.pcap.TcpFlow;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaSetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * One TCP connection that may carry MPA: its two directions, the set-up frames, and once both are
 * seen the negotiated CRC (C in either frame) and markers (M in the Request: markers in the
 * Responder-to-Initiator direction; M in the Reply: in the Initiator-to-Responder direction),
 * RFC 5044 section 7.1.1.
 */
final class MpaConnection {
    private final MpaStreamAnalyzer analyzer;
    private final TcpFlow firstFlow;
    private MpaDirection a;
    private MpaDirection b;
    int stream = -1;
    private MpaSetupFrame request;
    private MpaSetupFrame reply;
    private long replyFrame = -1;
    private boolean negotiated;

    MpaConnection(MpaStreamAnalyzer analyzer, TcpFlow firstFlow) {
        this.analyzer = analyzer;
        this.firstFlow = firstFlow;
    }

    MpaDirection side(TcpFlow flow) {
        return a != null && a.flow.equals(flow) ? a : b != null && b.flow.equals(flow) ? b : null;
    }

    void attach(MpaDirection d) {
        if (a == null) {
            a = d;
        } else {
            b = d;
        }
    }

    private MpaDirection other(MpaDirection d) {
        return d == a ? b : a;
    }

    private MpaDirection side(Direction dir) {
        return a != null && a.dir == dir ? a : b != null && b.dir == dir ? b : null;
    }

    void setupFrame(MpaDirection d, Direction dir, MpaSetupFrame f, long frame) {
        d.dir = dir;
        MpaDirection o = other(d);
        if (o != null && o.dir == dir) {
            analyzer.report(new Violation(Check.SETUP_INVALID, stream, dir, frame, -1,
                    "both directions start with an MPA " + (dir == Direction.I2R ? "Request" : "Reply")));
            d.ignored = true;
            return;
        }
        String who = dir == Direction.I2R ? d.flow.toString() : d.flow.reverse().toString();
        analyzer.sink().onSetup(new SetupRecord(stream, dir, frame, who, f));
        boolean hReserved = f.enhanced() && f.revision() == MpaSetupFrame.REVISION_1;
        if (f.reservedFlags() != 0 || hReserved) {
            analyzer.report(new Violation(Check.SETUP_RESERVED_FLAGS, stream, dir, frame, -1,
                    String.format("flags 0x%02x, revision %d", f.flags(), f.revision())));
        }
        if (dir == Direction.I2R) {
            request = f;
        } else {
            reply = f;
            replyFrame = frame;
        }
        if (request != null && reply != null) {
            negotiate();
        }
    }

    private void negotiate() {
        negotiated = true;
        boolean crc = request.crc() || reply.crc();
        for (MpaDirection d : new MpaDirection[] {side(Direction.I2R), side(Direction.R2I)}) {
            if (d == null || d.ignored) {
                continue;
            }
            // M in the Reply: the Responder receives markers, so Initiator-to-Responder carries them
            boolean markers = d.dir == Direction.I2R ? reply.markers() : request.markers();
            d.checker = new DdpRdmapChecker(stream, d.dir, analyzer.options().terminates(), analyzer::report);
            d.decoder = new FpduDecoder(crc, markers, true, 0, listener(d, crc));
            d.fpduPosition = 0;
            for (Object[] p : d.pending) {
                byte[] bytes = (byte[]) p[1];
                feed(d, (Long) p[0], bytes, 0, bytes.length);
            }
            d.pending.clear();
            d.pendingBytes = 0;
        }
    }

    private FpduListener listener(MpaDirection d, boolean crc) {
        return new FpduListener() {
            @Override
            public void onFpdu(ByteBuf ulpdu, long pos, CrcCheck check) {
                long frame = d.frameOf(pos);
                CrcStatus c = !crc ? CrcStatus.OFF : check == CrcCheck.GOOD ? CrcStatus.GOOD : CrcStatus.BAD;
                if (reply != null && reply.reject()) {
                    analyzer.report(new Violation(Check.FPDU_AFTER_REJECT, stream, d.dir, frame, pos,
                            "FPDU after the rejecting Reply of frame " + replyFrame));
                }
                if (d.decoder.pads().last() != 0) { // RFC 5044 section 4.1: PAD is sent as zero
                    analyzer.report(new Violation(Check.PAD_NOT_ZERO, stream, d.dir, frame, pos,
                            "PAD " + d.decoder.pads().lastHex() + " at stream offset " + d.decoder.pads().lastOffset()));
                }
                analyzer.sink().onFpdu(d.checker.inspect(ulpdu, frame, d.currentFrame, pos, c));
            }

            @Override
            public void onError(LlpError error, long pos, String detail) {
                Check check = error == LlpError.CRC_ERROR ? Check.CRC_BAD
                        : error == LlpError.MARKER_MISMATCH ? Check.MARKER_MISMATCH : Check.FPDU_FRAMING;
                analyzer.report(new Violation(check, stream, d.dir, d.frameOf(pos), pos, detail));
            }
        };
    }

    /** FPDU-stream bytes of a direction whose set-up frame has been decoded. */
    void fpduBytes(MpaDirection d, long frame, byte[] data, int off, int len) {
        if (len == 0) {
            return;
        }
        if (d.firstFpduFrame < 0) {
            d.firstFpduFrame = frame;
            timing(d, frame);
        }
        if (!negotiated) {
            if (d.pendingBytes + len > MpaStreamAnalyzer.MAX_PENDING) {
                d.ignored = true;
                analyzer.report(new Violation(Check.CAPTURE_INCOMPLETE, stream, d.dir, frame, -1,
                        "more than " + MpaStreamAnalyzer.MAX_PENDING + " FPDU bytes before the other set-up frame; not decoded"));
                d.pending.clear();
                return;
            }
            byte[] copy = java.util.Arrays.copyOfRange(data, off, off + len);
            d.pending.add(new Object[] {frame, copy});
            d.pendingBytes += len;
            return;
        }
        if (d.decoder != null) {
            feed(d, frame, data, off, len);
        }
    }

    /** RFC 5044 section 7.1.2 start-up order, judged by capture order. */
    private void timing(MpaDirection d, long frame) {
        if (d.dir == Direction.I2R && (reply == null || replyFrame > frame)) {
            analyzer.report(new Violation(Check.FPDU_BEFORE_REPLY, stream, d.dir, frame, 0,
                    "first Initiator FPDU byte in frame " + frame + (reply == null ? ", no Reply yet" : ", Reply in frame " + replyFrame)));
        }
        if (d.dir == Direction.R2I) {
            MpaDirection i = other(d);
            if (i == null || i.firstFpduFrame < 0 || i.firstFpduFrame > frame) {
                analyzer.report(new Violation(Check.RESPONDER_FIRST, stream, d.dir, frame, 0,
                        "Responder FPDU in frame " + frame + " before any Initiator FPDU"));
            }
        }
    }

    private void feed(MpaDirection d, long frame, byte[] data, int off, int len) {
        d.currentFrame = frame;
        d.frameAt.put(d.fpduPosition, frame);
        ByteBuf buf = Unpooled.wrappedBuffer(data, off, len);
        try {
            d.decoder.feed(buf);
        } finally {
            buf.release();
        }
        d.fpduPosition += len;
        d.prune();
    }

    void finish() {
        if (stream < 0) {
            return;
        }
        for (MpaDirection d : new MpaDirection[] {a, b}) {
            if (d == null || d.ignored) {
                continue;
            }
            if (d.dir == null && d.setup != null) {
                analyzer.report(new Violation(Check.CAPTURE_INCOMPLETE, stream, null, -1, -1,
                        "capture ends inside a set-up frame (" + d.setup.readableBytes() + " bytes) on " + d.flow));
                d.setup.release();
                d.setup = null;
            } else if (!negotiated && d.pendingBytes > 0) {
                analyzer.report(new Violation(Check.CAPTURE_INCOMPLETE, stream, d.dir, -1, -1, d.pendingBytes
                        + " FPDU bytes not decoded: the " + (request == null ? "Request" : "Reply") + " was not captured"));
            } else if (d.decoder != null && d.decoder.bufferedBytes() > 0) {
                analyzer.report(new Violation(Check.CAPTURE_INCOMPLETE, stream, d.dir, d.currentFrame,
                        d.decoder.streamPosition() - d.decoder.bufferedBytes(),
                        "capture ends inside an FPDU (" + d.decoder.bufferedBytes() + " bytes held)"));
            }
        }
    }

    @Override
    public String toString() {
        return "MpaConnection{" + firstFlow + ", stream " + stream + "}";
    }
}
