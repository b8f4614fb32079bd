package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loop's reads and its channelReadComplete: what the reads left the sending side (here the answer to an RDMA Read
 * Request, RFC 5040 section 4.5) goes out at the read-complete; reads that left it nothing make no write.
 */
class ReadCompletePumpTest {
    private static final byte[] DATA = "sixteen octets!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final EmbeddedQp e = EmbeddedQp.bind(new StreamParams(true, false, false, 16 * 1024, 4, 4, RtrType.NONE,
            true, 0));
    private final SoftRegion region = e.table().register(Unpooled.wrappedBuffer(DATA.clone()), 0,
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE, 1, 0);

    private static ByteBuf fpdu(ByteBuf ulpdu) {
        ByteBuf out = Unpooled.buffer();
        new FpduEncoder(true, false).encode(ulpdu, out);
        ulpdu.release();
        return out;
    }

    @Test
    void aReadRequestIsAnsweredAtTheReadComplete() {
        ByteBuf request = Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true))
                .writeInt(0).writeInt(RdmapOpcode.QN_READ_REQUEST).writeInt(1).writeInt(0) // MSN 1, MO 0
                .writeInt(0x500).writeLong(0).writeInt(DATA.length).writeInt(region.stag()).writeLong(0);
        e.ch().pipeline().fireChannelRead(fpdu(request));
        assertEquals(List.of(), e.ulpdusWritten(), "answered before the read-complete");
        e.ch().pipeline().fireChannelReadComplete();
        List<ByteBuf> out = e.ulpdusWritten();
        assertEquals(1, out.size());
        ByteBuf response = out.get(0);
        assertEquals(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_RESPONSE, true), response.getUnsignedShort(0));
        assertEquals(0x500, response.getInt(2)); // the sink STag, TO 0 (RFC 5040 section 4.5)
        assertArrayEquals(DATA, ByteBufUtil.getBytes(response, 14, DATA.length));
        response.release();
        e.ch().finishAndReleaseAll();
    }

    @Test
    void aWriteLeavesTheSendingSideNothingAndTheReadCompleteWritesNothing() {
        ByteBuf write = Unpooled.buffer().writeShort(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true))
                .writeInt(region.stag()).writeLong(0).writeBytes("SIXTEEN".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        e.ch().pipeline().fireChannelRead(fpdu(write));
        e.ch().pipeline().fireChannelReadComplete();
        assertNull(e.ch().readOutbound());
        assertEquals("SIXTEEN octets!!", new String(ByteBufUtil.getBytes(region.memory(), 0, DATA.length),
                java.nio.charset.StandardCharsets.US_ASCII)); // placed at TO 0
        assertEquals(0, e.retired().size());
        e.ch().finishAndReleaseAll();
    }
}
