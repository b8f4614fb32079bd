package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.RtrType;
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
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The live QP engine (rnic-soft: Receiver, Transmitter, QpEngine over a Netty EmbeddedChannel, MPA set-up
 * done, CRC on) fed arbitrary traffic after a real negotiation's parameters: two registered regions inside
 * guard bytes, two posted receives, one outstanding RDMA READ. Input: records of [u8 kind][u16 length][bytes];
 * kind bit 0 clear frames the bytes as one FPDU with a good CRC (so that mutations reach DDP and RDMAP), set
 * sends them raw; kind bit 1 overwrites octets 2..5 (a tagged header's STag) with the STag of region (kind >> 2) & 1,
 * so that mutations reach the placement checks with live STags.
 */
class LiveEngineFuzzTest {
    private static final int GUARD = 64;
    private static final int LEN = 4096;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    /**
     * Properties: no exception escapes the pipeline; no byte outside the registered regions and posted receives
     * changes (guard bytes); everything the engine writes back decodes as FPDUs with good CRCs, and at most one of
     * them is a Terminate, which decodes in the RFC layout; once a Terminate was sent the QP is no longer in RTS;
     * the QP ends in RTS, TERMINATE or ERROR.
     */
    @FuzzTest(maxDuration = "60s")
    void feed(byte[] data) throws Exception {
        FuzzInput in = new FuzzInput(data);
        SecureRandom seeded = SecureRandom.getInstance("SHA1PRNG");
        seeded.setSeed(1);
        MemoryTable table = new MemoryTable(16, seeded);
        byte[][] arrays = new byte[2][GUARD + LEN + GUARD];
        SoftRegion[] regions = new SoftRegion[2];
        for (int i = 0; i < 2; i++) {
            Arrays.fill(arrays[i], GUARD_BYTE);
            regions[i] = table.register(Unpooled.wrappedBuffer(arrays[i], GUARD, LEN).slice(), 0,
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC,
                    1, MemoryTable.RANDOM_KEY);
        }
        List<String> upcalls = new ArrayList<>();
        QpEngine qp = new QpEngine(table, 1, 8, 8, new QpListener() {
            @Override
            public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
                upcalls.add(trigger.name());
            }

            @Override
            public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                return true;
            }

            @Override
            public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                return true;
            }
        });
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
        StreamParams params = new StreamParams(true, false, false, 16 * 1024, 4, 4, RtrType.NONE, true, 0);
        qp.bind(ch, params, "mpa", null, null);
        for (int i = 0; i < 2; i++) { // receives in region 0, halves
            RqEntry r = new RqEntry(null).reuse("r" + i);
            r.sgl.add(regions[0], i * (LEN / 2), LEN / 2);
            qp.inbox().postRecv(r);
        }
        SqEntry read = new SqEntry().reuse("read", SqOpcode.RDMA_READ);
        read.sgl.add(regions[1], 0, 256);
        read.remoteStag = 0x1234_5600;
        qp.inbox().postSend(read);
        ch.runPendingTasks();
        List<ByteBuf> written = new ArrayList<>();
        drain(ch, written);

        FpduEncoder encoder = new FpduEncoder(true, false);
        // the engine's peer: FPDU stream positions count from 0 (they matter only with markers, which are off here)
        while (in.remaining() >= 3 && ch.isOpen()) {
            int kind = in.u8();
            byte[] bytes = in.bytes(Math.min(in.u16(), 70_000));
            ByteBuf out = Unpooled.buffer();
            if ((kind & 1) == 0 && bytes.length <= 65_535) {
                if ((kind & 2) != 0 && bytes.length >= 6) {
                    int stag = regions[(kind >> 2) & 1].stag();
                    bytes[2] = (byte) (stag >>> 24);
                    bytes[3] = (byte) (stag >>> 16);
                    bytes[4] = (byte) (stag >>> 8);
                    bytes[5] = (byte) stag;
                }
                encoder.encode(Unpooled.wrappedBuffer(bytes), null, out);
            } else {
                out.writeBytes(bytes);
            }
            ch.writeInbound(out);
            ch.runPendingTasks();
            ch.checkException();
            drain(ch, written);
        }

        for (byte[] a : arrays) {
            for (int i = 0; i < GUARD; i++) {
                assertEquals(GUARD_BYTE, a[i], "guard byte before a region changed");
                assertEquals(GUARD_BYTE, a[GUARD + LEN + i], "guard byte after a region changed");
            }
        }
        List<ByteBuf> ulpdus = ulpdusIn(written);
        TerminateProperties.check(ulpdus, qp.state(), " after " + upcalls);
        ulpdus.forEach(ByteBuf::release);
        ch.finishAndReleaseAll();
    }

    private static void drain(EmbeddedChannel ch, List<ByteBuf> written) {
        Object m;
        while ((m = ch.readOutbound()) != null) {
            if (m instanceof ByteBuf b) {
                written.add(b);
            } else {
                ReferenceCountUtil.release(m); // a zero-copy WireMark: taken off the wire after the bytes before it
            }
        }
    }

    /** Decodes everything written (each FPDU's CRC must be good) into copies of its ULPDUs. */
    private static List<ByteBuf> ulpdusIn(List<ByteBuf> written) {
        List<ByteBuf> ulpdus = new ArrayList<>();
        FpduDecoder dec = new FpduDecoder(true, false, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long offset, CrcCheck crc) {
                assertEquals(CrcCheck.GOOD, crc, "the engine wrote an FPDU with a bad CRC");
                ulpdus.add(Unpooled.copiedBuffer(u));
            }

            @Override
            public void onError(LlpError error, long offset, String detail) {
                throw new AssertionError("the engine's own stream does not frame: " + error + " " + detail);
            }
        });
        for (ByteBuf b : written) {
            dec.feed(b);
            b.release();
        }
        return ulpdus;
    }
}
