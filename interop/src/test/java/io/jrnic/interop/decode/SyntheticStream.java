package io.jrnic.interop.decode;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.jrnic.rdmap.TerminateHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds one direction of an MPA stream with the real encoders: ULPDUs through the DDP/RDMAP
 * flyweights, FPDUs through {@link FpduEncoder}; remembers each FPDU's start and the CSV row a
 * correct decoder must print for it (formatted here, independently of {@link CsvFormat}).
 */
final class SyntheticStream {
    final String dir;
    final int stream;
    private final FpduEncoder encoder;
    private final String crc;
    private final ByteBuf bytes = Unpooled.buffer();
    final List<Integer> fpduStarts = new ArrayList<>();
    final List<String> rows = new ArrayList<>();

    SyntheticStream(int stream, String dir, boolean crc, boolean markers) {
        this.stream = stream;
        this.dir = dir;
        this.encoder = new FpduEncoder(crc, markers);
        this.crc = crc ? "good" : "off";
    }

    static byte[] setupFrame(MpaSetupFrame.Kind kind, boolean markers, boolean crc, boolean reject) {
        MpaSetupFrame f = MpaSetupFrame.builder(kind).revision(MpaSetupFrame.REVISION_2).enhanced(true)
                .markers(markers).crc(crc).reject(reject).v2Words(MpaV2Words.of(16, 16)).privateData(new byte[0]).build();
        ByteBuf b = Unpooled.buffer();
        f.encode(b);
        byte[] out = ByteBufUtil.getBytes(b);
        b.release();
        return out;
    }

    private void fpdu(ByteBuf ulpdu, String row) {
        fpduStarts.add(bytes.writerIndex());
        encoder.encode(ulpdu, bytes);
        ulpdu.release();
        rows.add(stream + "," + dir + "," + row + "," + crc);
    }

    private static ByteBuf payload(ByteBuf u, int n, int seed) {
        for (int i = 0; i < n; i++) {
            u.writeByte(seed + i * 7);
        }
        return u;
    }

    SyntheticStream tagged(RdmapOpcode op, boolean last, int stag, long to, int payload) {
        ByteBuf u = Unpooled.buffer();
        u.writeZero(TaggedHeader.HEADER_LENGTH);
        new TaggedHeader().wrap(u, 0).control(RdmapControl.controlWord(op, last)).stag(stag).taggedOffset(to);
        payload(u, payload, stag);
        fpdu(u, String.format("%d,0x%02x,1,%d,0x%08x,0x%016x,,,", TaggedHeader.HEADER_LENGTH + payload, op.code(),
                last ? 1 : 0, stag & 0xFFFFFFFFL, to));
        return this;
    }

    /** An untagged segment with an explicit control word (for crafted violations). */
    SyntheticStream untaggedRaw(int control, long qn, long msn, long mo, int rsvdUlp, ByteBuf extra, int payload) {
        ByteBuf u = Unpooled.buffer();
        u.writeZero(UntaggedHeader.HEADER_LENGTH);
        new UntaggedHeader().wrap(u, 0).control(control).rsvdUlp(rsvdUlp).queueNumber(qn).msn(msn).messageOffset(mo);
        int len = UntaggedHeader.HEADER_LENGTH + payload;
        if (extra != null) {
            len += extra.readableBytes();
            u.writeBytes(extra);
            extra.release();
        }
        payload(u, payload, (int) msn);
        fpdu(u, String.format("%d,0x%02x,%d,%d,,,%d,%d,%d", len, control & 0xF, DdpControl.isTagged(control) ? 1 : 0,
                DdpControl.isLast(control) ? 1 : 0, qn, msn, mo));
        return this;
    }

    SyntheticStream untagged(RdmapOpcode op, boolean last, long msn, long mo, int rsvdUlp, int payload) {
        return untaggedRaw(RdmapControl.controlWord(op, last), op.queueNumber(), msn, mo, rsvdUlp, null, payload);
    }

    SyntheticStream readRequest(long msn, int sinkStag, long sinkTo, int size, int srcStag, long srcTo) {
        ByteBuf rr = Unpooled.buffer();
        rr.writeZero(ReadRequestHeader.LENGTH);
        new ReadRequestHeader().wrap(rr, 0).sinkStag(sinkStag).sinkTaggedOffset(sinkTo).readSize(size)
                .srcStag(srcStag).srcTaggedOffset(srcTo);
        return untaggedRaw(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true), 1, msn, 0, 0, rr, 0);
    }

    SyntheticStream terminate(int layer, int etype, int code) {
        ByteBuf t = Unpooled.buffer();
        t.writeZero(TerminateHeader.CONTROL_LENGTH);
        new TerminateHeader().wrap(t, 0).control(layer, etype, code, false, false, false);
        return untaggedRaw(RdmapControl.controlWord(RdmapOpcode.TERMINATE, true), 2, 1, 0, 0, t, 0);
    }

    /** An FPDU around an arbitrary ULPDU (for crafted violations); the row is not checked. */
    SyntheticStream raw(ByteBuf ulpdu) {
        fpdu(ulpdu, "?");
        return this;
    }

    static byte[] setupFrame(MpaSetupFrame.Kind kind, boolean crc, boolean reject, int reservedFlags) {
        MpaSetupFrame f = MpaSetupFrame.builder(kind).revision(MpaSetupFrame.REVISION_2).enhanced(true)
                .crc(crc).reject(reject).reservedFlags(reservedFlags).v2Words(MpaV2Words.of(16, 16))
                .privateData(new byte[0]).build();
        ByteBuf b = Unpooled.buffer();
        f.encode(b);
        byte[] out = ByteBufUtil.getBytes(b);
        b.release();
        return out;
    }

    /** Raw FPDU-stream bytes (no set-up frame). */
    byte[] bytes() {
        return ByteBufUtil.getBytes(bytes);
    }

    void release() {
        bytes.release();
    }
}
