package io.jrnic.bench;

import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * MPA FPDU framing with CRC-32C, no markers as with siw (RFC 5044 section 4), each next to a plain copy of the same
 * number of bytes, on pooled direct buffers. encode vs copyUlpdu: the cost of framing plus
 * CRC over copying the ULPDU; decode vs copyFpdu: finding, CRC-checking and delivering the
 * FPDU (delivered in place) over copying its bytes once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FpduBench {
    @Param({"64", "1424", "65535"})
    public int ulpduLength;

    private ByteBuf ulpdu;
    private ByteBuf out;
    private ByteBuf wire;
    private FpduEncoder encoder;
    private FpduDecoder decoder;
    private Blackhole hole;

    @Setup(Level.Trial)
    public void setup(Blackhole bh) {
        hole = bh;
        PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        ulpdu = alloc.directBuffer(ulpduLength);
        for (int i = 0; i < ulpduLength; i++) {
            ulpdu.writeByte(i * 31);
        }
        out = alloc.directBuffer(ulpduLength + 1024);
        encoder = new FpduEncoder(true, false);
        wire = alloc.directBuffer(ulpduLength + 1024);
        new FpduEncoder(true, false).encode(ulpdu, wire);
        decoder = new FpduDecoder(true, false, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long offset, CrcCheck crc) {
                hole.consume(u.readableBytes());
            }

            @Override
            public void onError(LlpError error, long offset, String detail) {
                throw new IllegalStateException(detail);
            }
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        ulpdu.release();
        out.release();
        wire.release();
    }

    @Benchmark
    public int encode() {
        out.clear();
        encoder.encode(ulpdu, out);
        return out.writerIndex();
    }

    @Benchmark
    public int copyUlpdu() {
        out.clear();
        out.writeBytes(ulpdu, ulpdu.readerIndex(), ulpdu.readableBytes());
        return out.writerIndex();
    }

    @Benchmark
    public long decode() {
        wire.readerIndex(0);
        decoder.feed(wire);
        return decoder.fpdus();
    }

    @Benchmark
    public int copyFpdu() {
        out.clear();
        out.writeBytes(wire, 0, wire.writerIndex());
        return out.writerIndex();
    }
}
