package io.jrnic.conform.cases;

import io.jrnic.conform.rping.RawPeer;
import io.jrnic.conform.rping.RpingClientPeer;
import io.jrnic.conform.rping.RpingServerPeer;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.rdmap.RdmapOpcode;
import io.netty.buffer.ByteBuf;

/**
 * The rping-shaped messages the fuzzer starts from, addressed with what the peer learned (the target's
 * STag and TO): 0 a Send of 16 octets, 1 an RDMA Write of 8, 2 a Read Request of 8, 3 a Read Response of 8,
 * 4 a Terminate (RDMAP/2/0xFF), 5 a Send with Invalidate of an unknown STag.
 */
public final class Templates {
    private Templates() {
    }

    public static ByteBuf message(RawPeer peer, int template) {
        int stag;
        long to;
        int sink;
        long sinkTo;
        if (peer instanceof RpingClientPeer c) {
            stag = c.targetStag;
            to = c.targetTo;
            sink = RpingClientPeer.SINK_STAG;
            sinkTo = RpingClientPeer.SINK_TO;
        } else {
            RpingServerPeer s = (RpingServerPeer) peer;
            stag = s.clientStag;
            to = s.clientTo;
            sink = RpingServerPeer.SINK_STAG;
            sinkTo = RpingServerPeer.SINK_TO;
        }
        return switch (template) {
            case 0 -> Ulpdus.send(peer.sendMsn++, new byte[16]);
            case 1 -> Ulpdus.write(stag, to, new byte[8]);
            case 2 -> Ulpdus.readRequest(peer.readMsn++, sink, sinkTo, 8, stag, to);
            case 3 -> Ulpdus.readResponse(stag, to, new byte[8]);
            case 4 -> RdmapCases.terminate(0x02, 0xFF, 0, false);
            default -> Ulpdus.send(RdmapOpcode.SEND_WITH_INVALIDATE, DdpCases.FOREIGN_STAG, peer.sendMsn++, new byte[16]);
        };
    }
}
