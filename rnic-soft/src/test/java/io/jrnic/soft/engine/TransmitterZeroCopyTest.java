package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.TaggedHeader;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The transmitter's choice between copying and zero-copy, seen on the channel: what it writes (buffers
 * sharing the registered memory or not), that the FPDUs decode with good CRCs and carry the payload, and
 * when the work request is retired. The stream is an EmbeddedChannel (writes leave at flush).
 */
class TransmitterZeroCopyTest {
    private final MemoryTable table = new MemoryTable(16);
    /** Retired with SUCCESS, and with any other status. */
    private final List<SqEntry> retired = new ArrayList<>();
    private final List<SqEntry> failed = new ArrayList<>();
    private EmbeddedChannel ch;
    private QpEngine qp;

    private void bind(boolean markers) {
        qp = new QpEngine(table, 1, 16, 16, new QpListener() {
            @Override
            public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
            }

            @Override
            public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                (status == Status.SUCCESS ? retired : failed).add(e);
                return true;
            }

            @Override
            public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                return true;
            }
        });
        ch = new EmbeddedChannel();
        ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
        qp.bind(ch, new StreamParams(true, markers, false, 16 * 1024, 4, 4, RtrType.NONE, true, 0), "mpa", null, null);
        ch.runPendingTasks();
    }

    @AfterEach
    void close() {
        ch.finishAndReleaseAll();
    }

    /** Posts an RDMA WRITE of {@code len} bytes of {@code mem}; returns the buffers written to the channel. */
    private List<ByteBuf> write(ByteBuf mem, int len) {
        List<Object> marks = new ArrayList<>();
        List<ByteBuf> out = write(mem, len, marks);
        marks.forEach(ReferenceCountUtil::release); // the channel is done with the bytes before the marks
        return out;
    }

    /** The same, leaving the {@link WireMark}s written after zero-copy payloads in {@code marks}, unreleased. */
    private List<ByteBuf> write(ByteBuf mem, int len, List<Object> marks) {
        return write(marks, new ByteBuf[] {mem}, new int[] {len});
    }

    /** Posts an RDMA WRITE gathering {@code lens[i]} bytes of each {@code mems[i]} (one SGE each). */
    private List<ByteBuf> write(List<Object> marks, ByteBuf[] mems, int[] lens) {
        SqEntry e = new SqEntry().reuse("wr", SqOpcode.RDMA_WRITE);
        for (int i = 0; i < mems.length; i++) {
            e.sgl.add(table.register(mems[i], 0, AccessFlags.LOCAL_WRITE, 1, 0), 0, lens[i]);
        }
        e.remoteStag = 0x100;
        qp.inbox().postSend(e);
        ch.runPendingTasks();
        List<ByteBuf> out = new ArrayList<>();
        Object m;
        while ((m = ch.readOutbound()) != null) {
            if (m instanceof ByteBuf b) {
                out.add(b);
            } else {
                marks.add(m);
            }
        }
        return out;
    }

    /** Decodes the written stream; returns the payloads (after the tagged header) of the FPDUs, all CRC-good. */
    private static byte[] payloads(List<ByteBuf> written, boolean markers) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        FpduDecoder dec = new FpduDecoder(true, markers, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long offset, CrcCheck crc) {
                assertEquals(CrcCheck.GOOD, crc);
                byte[] b = new byte[u.readableBytes() - TaggedHeader.HEADER_LENGTH];
                u.getBytes(u.readerIndex() + TaggedHeader.HEADER_LENGTH, b);
                got.writeBytes(b);
            }

            @Override
            public void onError(LlpError error, long offset, String detail) {
                throw new AssertionError(error + " " + detail);
            }
        });
        for (ByteBuf b : written) {
            dec.feed(b);
            b.release();
        }
        return got.toByteArray();
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static boolean sharesMemory(ByteBuf written, ByteBuf mem) {
        return written.hasMemoryAddress() && written.memoryAddress() >= mem.memoryAddress()
                && written.memoryAddress() < mem.memoryAddress() + mem.capacity();
    }

    @Test
    void largeSegmentsOfDirectMemoryGoOutAsSlicesOfItWithGoodCrcs() {
        bind(false);
        int len = 40_000; // three FPDUs at MULPDU 16 KiB: 16370 + 16370 + 7260
        byte[] data = random(len);
        ByteBuf mem = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(len).put(data).clear());
        List<ByteBuf> out = write(mem, len);
        long slices = out.stream().filter(b -> sharesMemory(b, mem)).count();
        assertEquals(3, slices, "each FPDU's payload is a slice of the registered memory");
        assertEquals(1, retired.size(), "retired once its bytes left the outbound buffer");
        assertArrayEquals(data, payloads(out, false));
        assertEquals(1, mem.refCnt(), "the channel released every slice");
    }

    /** Registered memory of kind {@code kind} holding {@code data}. */
    private static ByteBuf memory(String kind, byte[] data) {
        return switch (kind) {
            case "heap" -> Unpooled.wrappedBuffer(data.clone());
            case "unpooled-direct" -> Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(data.length).put(data).clear());
            default -> io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(data.length).writeBytes(data);
        };
    }

    /**
     * One WRITE from three SGEs of every memory kind: segments that span two SGEs are gathered (copied), those in
     * one SGE of direct memory go as views of it; the decoded stream carries the SGEs' bytes in order, CRCs good,
     * and every view is released (the memory's count back to the registration's).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"heap", "unpooled-direct", "pooled-direct"})
    void everyMemoryKindAndPayloadsAcrossSgesArriveIntact(String kind) {
        bind(false);
        int[] lens = {10_000, 7_001, 60_000}; // at 16370 a segment: two span SGEs, the last three lie in the third
        byte[][] data = {random(lens[0]), random(lens[1] + 1), random(lens[2] + 2)};
        ByteBuf[] mems = new ByteBuf[3];
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 3; i++) {
            mems[i] = memory(kind, data[i]);
            expected.write(data[i], 0, lens[i]);
        }
        for (int round = 0; round < 2; round++) { // the second round reuses the first's views
            List<Object> marks = new ArrayList<>();
            List<ByteBuf> out = write(marks, mems, lens);
            long views = out.stream().filter(b -> b instanceof PayloadSlice).count();
            assertEquals(kind.equals("heap") ? 0 : 3, views, "payloads in one SGE of direct memory go zero-copy");
            assertArrayEquals(expected.toByteArray(), payloads(out, false));
            marks.forEach(ReferenceCountUtil::release);
        }
        assertEquals(2, retired.size());
        for (ByteBuf m : mems) {
            assertEquals(1, m.refCnt(), "the channel released every view of the memory");
            m.release();
        }
    }

    @Test
    void payloadViewsAreReusedOnceTheChannelReleasedThem() {
        bind(false);
        int len = 40_000;
        ByteBuf mem = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(len));
        List<ByteBuf> first = write(mem, len);
        List<ByteBuf> views = first.stream().filter(b -> b instanceof PayloadSlice).toList();
        assertEquals(3, views.size());
        assertEquals(1 + views.size(), mem.refCnt(), "each view in the channel keeps the memory retained");
        payloads(first, false); // the channel is done: releases them
        assertEquals(1, mem.refCnt());
        List<ByteBuf> second = write(mem, len);
        List<ByteBuf> again = second.stream().filter(b -> b instanceof PayloadSlice).toList();
        assertEquals(3, again.size());
        for (ByteBuf v : again) {
            assertTrue(views.stream().anyMatch(w -> w == v), "a released view is written again");
        }
        // views the channel still holds are not reused: a third write while the second's are held takes new ones
        List<ByteBuf> third = write(mem, len);
        for (ByteBuf v : third) {
            assertTrue(again.stream().noneMatch(w -> w == v), "a view in flight is not reused");
        }
        payloads(second, false);
        payloads(third, false);
        assertEquals(1, mem.refCnt());
        assertEquals(3, retired.size());
    }

    @Test
    void heapMemorySmallSegmentsAndMarkersTakeTheCopyPath() {
        bind(false);
        byte[] data = random(40_000);
        ByteBuf heap = Unpooled.wrappedBuffer(data.clone());
        List<ByteBuf> out = write(heap, data.length);
        assertTrue(out.stream().noneMatch(b -> b.hasArray() && b.array() == heap.array()));
        assertArrayEquals(data, payloads(out, false));

        ByteBuf small = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(FpduFraming.ZERO_COPY_MIN - 1));
        out = write(small, small.capacity());
        assertTrue(out.stream().noneMatch(b -> sharesMemory(b, small)), "below the threshold: copied");
        payloads(out, false);
        assertEquals(2, retired.size());
    }

    @Test
    void withMarkersDirectMemoryIsCopied() {
        bind(true);
        byte[] data = random(20_000);
        ByteBuf mem = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(data.length).put(data).clear());
        List<ByteBuf> out = write(mem, data.length);
        assertTrue(out.stream().noneMatch(b -> sharesMemory(b, mem)), "markers are inserted into a copy");
        assertArrayEquals(data, payloads(out, true));
        assertEquals(1, retired.size());
    }

    @Test
    void aZeroCopyWriteCompletesWhenTheChannelReleasesItsMarkNotBefore() {
        bind(false);
        int len = 40_000;
        ByteBuf mem = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(len));
        List<Object> marks = new ArrayList<>();
        List<ByteBuf> out = write(mem, len, marks);
        assertEquals(1, marks.size(), "one mark after the WR's last slice");
        assertTrue(marks.get(0) instanceof WireMark);
        assertEquals(List.of(), retired, "the slices are written but the channel still holds the mark");
        payloads(out, false);
        ReferenceCountUtil.release(marks.get(0));
        assertEquals(1, retired.size(), "retired by the mark's release");

        // the mark is reused by the next zero-copy flush (nothing allocated per flush once warm)
        List<Object> again = new ArrayList<>();
        payloads(write(mem, len, again), false);
        assertTrue(again.get(0) == marks.get(0), "the released mark is written again");
        ReferenceCountUtil.release(again.get(0));
        assertEquals(2, retired.size());
        assertEquals(List.of(), failed);
    }

    @Test
    void aMarkReleasedByAClosingStreamDoesNotCompleteItsWriteAsSuccess() {
        bind(false);
        int len = 40_000;
        ByteBuf mem = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(len));
        List<Object> marks = new ArrayList<>();
        // like a transport failing its unwritten messages on close: the mark goes once the socket is closed,
        // before the engine hears of the loss
        ch.pipeline().addFirst(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                marks.forEach(ReferenceCountUtil::release);
                assertEquals(List.of(), retired, "a mark released by a closed stream completes nothing");
                ctx.fireChannelInactive();
            }
        });
        write(mem, len, marks).forEach(ByteBuf::release);
        assertEquals(1, marks.size());
        ch.close();
        assertEquals(List.of(), retired);
        assertEquals(1, failed.size(), "flushed (WR_FLUSH_ERROR) with the stream's loss");
    }
}
