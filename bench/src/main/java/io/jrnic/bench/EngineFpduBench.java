package io.jrnic.bench;

import io.jrnic.ddp.TaggedHeader;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.engine.QpEngine;
import io.jrnic.soft.engine.QpListener;
import io.jrnic.soft.engine.RecvInfo;
import io.jrnic.soft.engine.RqEntry;
import io.jrnic.soft.engine.SqEntry;
import io.jrnic.soft.engine.SqOpcode;
import io.jrnic.soft.engine.Status;
import io.jrnic.soft.engine.StreamParams;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The engine's data path per FPDU, without a socket (a Netty EmbeddedChannel stands for the stream), CRC on:
 * {@code tx}: one RDMA WRITE of one FPDU posted, framed, written to the channel, its write completed and the
 * WR retired; {@code rx}: one RDMA WRITE FPDU decoded, CRC-checked, validated and placed. Run with
 * {@code -prof gc} for the allocation per FPDU ({@code gc.alloc.rate.norm}, B/op). Payloads of 64 B and 1 KiB take
 * the copy path, 16 KiB of direct memory the zero-copy path (a reused view of the region's memory).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EngineFpduBench {
    @Param({"64", "1024", "16384"})
    public int payload;

    /** heap, unpooled-direct (a ByteBuffer.allocateDirect registration) or pooled-direct (a pooled ByteBuf). */
    @Param({"heap", "unpooled-direct", "pooled-direct"})
    public String memory;

    private EmbeddedChannel ch;
    /** The receive harness's channel ({@link #rxHarness}): only a handler that releases what it reads. */
    private EmbeddedChannel rxHarnessCh;
    private QpEngine qp;
    private SqEntry entry;
    private final SqEntry[] batch = new SqEntry[BATCH];
    private SoftRegion region;
    private ByteBuf mem;
    private ByteBuf fpdu;
    private long retired;

    @Setup(Level.Trial)
    public void setup() {
        mem = switch (memory) {
            case "heap" -> Unpooled.wrappedBuffer(new byte[payload]);
            case "unpooled-direct" -> Unpooled.wrappedBuffer(java.nio.ByteBuffer.allocateDirect(payload));
            default -> PooledByteBufAllocator.DEFAULT.directBuffer(payload, payload).writerIndex(payload);
        };
        MemoryTable table = new MemoryTable(16);
        region = table.register(mem, 0, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, 1, 0);
        qp = new QpEngine(table, 1, 2 * BATCH, 16, new QpListener() {
            @Override
            public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
            }

            @Override
            public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                if (status != Status.SUCCESS) {
                    throw new IllegalStateException(String.valueOf(status));
                }
                retired++;
                return true;
            }

            @Override
            public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                return true;
            }
        });
        ch = new EmbeddedChannel();
        ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
        qp.bind(ch, new StreamParams(true, false, false, 32 * 1024, 16, 16, RtrType.NONE, true, 0), "mpa", null, null);
        ch.runPendingTasks();
        drainOutbound();
        entry = new SqEntry();
        for (int i = 0; i < BATCH; i++) {
            batch[i] = new SqEntry();
        }
        // one inbound RDMA WRITE FPDU placing the payload at TO 0 of the region (RFC 5041 section 4.2)
        ByteBuf header = Unpooled.buffer(TaggedHeader.HEADER_LENGTH).writeZero(TaggedHeader.HEADER_LENGTH);
        new TaggedHeader().wrap(header, 0).control(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true))
                .stag(region.stag()).taggedOffset(0);
        fpdu = PooledByteBufAllocator.DEFAULT.directBuffer(payload + 64);
        rxHarnessCh = new EmbeddedChannel(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
            }
        });
        new FpduEncoder(true, false).encode(header, mem, 0, payload, fpdu);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        // a benchmark that made the QP fail (a Terminate) would have measured nothing
        if (qp.state() != io.jrnic.verbs.QpState.RTS) {
            throw new IllegalStateException("QP left RTS: " + qp);
        }
        ch.finishAndReleaseAll();
        rxHarnessCh.finishAndReleaseAll();
        fpdu.release();
        if (harnessBuf != null) {
            harnessBuf.release();
        }
        if (!memory.equals("heap")) {
            mem.release();
        }
    }

    private long drainOutbound() {
        long n = 0;
        Object m;
        while ((m = ch.readOutbound()) != null) {
            if (m instanceof ByteBuf b) {
                n += b.readableBytes();
            }
            ReferenceCountUtil.release(m); // a ByteBuf, or the zero-copy path's WireMark (completes the WR)
        }
        return n;
    }

    @Benchmark
    public long tx() {
        SqEntry e = entry.reuse(null, SqOpcode.RDMA_WRITE);
        e.sgl.add(region, 0, payload);
        e.remoteStag = 0x100;
        e.signaled = true;
        qp.inbox().postSend(e);
        ch.runPendingTasks();
        return drainOutbound() + retired;
    }

    /** WRs posted per {@code txBatch} operation before the loop runs once (as a poster with a tx depth). */
    public static final int BATCH = 16;

    /**
     * {@code tx} with {@link #BATCH} WRs of one FPDU each posted before the channel's loop runs: the figure is per
     * FPDU (the drain task, the flush and the write to the channel shared by the batch), as a poster keeping a send
     * depth in flight sees it.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long txBatch() {
        for (SqEntry e : batch) {
            e.reuse(null, SqOpcode.RDMA_WRITE);
            e.sgl.add(region, 0, payload);
            e.remoteStag = 0x100;
            e.signaled = true;
            qp.inbox().enqueueSend(e);
        }
        qp.inbox().kick();
        ch.runPendingTasks();
        return drainOutbound() + retired;
    }

    /**
     * The harness alone, what {@code tx} pays that is not the engine's: one task through the EmbeddedChannel's loop
     * writing and flushing one reused buffer of a 64 B FPDU's size (one pass through the pipeline, as the engine's), the outbound message read back and released
     * (as {@code tx} drains its channel). {@code tx} minus this is the engine's share.
     */
    @Benchmark
    public long harness() {
        ch.eventLoop().execute(harnessTask);
        ch.runPendingTasks();
        return drainOutbound();
    }

    private ByteBuf harnessBuf;
    private final Runnable harnessTask = () -> {
        if (harnessBuf == null) {
            harnessBuf = PooledByteBufAllocator.DEFAULT.directBuffer(128);
        }
        ch.writeAndFlush(harnessBuf.retain().clear().writerIndex(88), ch.voidPromise());
    };

    /**
     * The receive harness alone, what {@code rx} pays that is not the engine's: the same FPDU fired through an
     * EmbeddedChannel whose only handler releases it, then channelReadComplete (whose auto-read {@code read()} makes the
     * EmbeddedChannel run its pending and scheduled tasks, two {@code System.nanoTime} calls, where an epoll channel
     * sets a flag). {@code rx} minus this is the engine's share.
     */
    @Benchmark
    public long rxHarness() {
        fpdu.retain().readerIndex(0);
        rxHarnessCh.pipeline().fireChannelRead(fpdu);
        rxHarnessCh.pipeline().fireChannelReadComplete();
        return fpdu.refCnt();
    }

    @Benchmark
    public long rx() {
        fpdu.retain().readerIndex(0);
        ch.pipeline().fireChannelRead(fpdu);
        ch.pipeline().fireChannelReadComplete();
        return fpdu.refCnt();
    }
}
