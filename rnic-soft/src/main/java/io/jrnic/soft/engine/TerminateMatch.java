package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.netty.buffer.Unpooled;

/**
 * Which send WR a received Terminate is about (RFC 5040 section 4.8): the terminated DDP header it
 * carries names a tagged STag (RDMA Write) or an untagged queue and MSN (Send: QN 0; Read or Atomic
 * Request: QN 1). Without a DDP header, the WR in progress at the head of the send queue.
 */
final class TerminateMatch {
    private TerminateMatch() {
    }

    static boolean names(Terminate t, SqEntry head) {
        if (!head.started) {
            return false;
        }
        byte[] h = t.ddpHeader();
        if (h == null) {
            return true;
        }
        var buf = Unpooled.wrappedBuffer(h);
        int control = buf.getUnsignedShort(0);
        if (DdpControl.isTagged(control)) {
            return (head.opcode == SqOpcode.RDMA_WRITE || head.opcode == SqOpcode.RDMA_WRITE_WITH_IMMEDIATE)
                    && TaggedHeader.stag(buf, 0) == head.remoteStag;
        }
        long qn = UntaggedHeader.queueNumber(buf, 0);
        long msn = UntaggedHeader.msn(buf, 0);
        if (qn == RdmapOpcode.QN_SEND) {
            return (head.opcode.isSend() || head.opcode == SqOpcode.IMMEDIATE_DATA
                    || head.opcode == SqOpcode.RDMA_WRITE_WITH_IMMEDIATE) && head.msn == msn;
        }
        if (qn == RdmapOpcode.QN_READ_REQUEST) {
            return head.opcode.isReadLike() && head.msn == msn;
        }
        return false;
    }
}
