package io.jrnic.interop.decode;

import io.jrnic.interop.pcap.TcpFlow;
import io.jrnic.mpa.FpduDecoder;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** State of one direction of a candidate MPA connection. */
final class MpaDirection {
    final MpaConnection conn;
    final TcpFlow flow;
    Direction dir;            // known once its set-up frame is recognised
    boolean ignored;          // not MPA, broken set-up frame, or a capture gap
    ByteBuf setup;            // set-up frame bytes being gathered
    long fpduBase;            // TCP stream offset of FPDU stream position 0
    long fpduPosition;        // FPDU stream position of the next byte
    long firstFpduFrame = -1; // frame carrying the first FPDU byte
    final List<Object[]> pending = new ArrayList<>();  // {frame, byte[]} held until negotiation
    int pendingBytes;
    FpduDecoder decoder;
    DdpRdmapChecker checker;
    final TreeMap<Long, Long> frameAt = new TreeMap<>();  // FPDU stream position -> frame
    long currentFrame;

    MpaDirection(MpaConnection conn, TcpFlow flow) {
        this.conn = conn;
        this.flow = flow;
    }

    long frameOf(long position) {
        var e = frameAt.floorEntry(position);
        return e == null ? currentFrame : e.getValue();
    }

    /** Forgets frame positions no FPDU can start at any more (an FPDU is at most ~66 KB). */
    void prune() {
        Long k = frameAt.floorKey(fpduPosition - 140_000);
        if (k != null) {
            frameAt.headMap(k, false).clear();
        }
    }
}
