package io.jrnic.fuzz;

import static io.jrnic.fuzz.SeedFrames.ascii;
import static io.jrnic.fuzz.SeedFrames.bytes;
import static io.jrnic.fuzz.SeedFrames.cat;
import static io.jrnic.fuzz.SeedFrames.encode;
import static io.jrnic.fuzz.SeedFrames.fpdu;
import static io.jrnic.fuzz.SeedFrames.fpduStream;
import static io.jrnic.fuzz.SeedFrames.replyTo;
import static io.jrnic.fuzz.SeedFrames.requestOf;
import static io.jrnic.fuzz.SeedFrames.siwLayout;
import static io.jrnic.fuzz.SeedFrames.tagged;
import static io.jrnic.fuzz.SeedFrames.terminate;
import static io.jrnic.fuzz.SeedFrames.untagged;

import io.jrnic.interop.decode.SiwCaptures;
import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.interop.pcap.TcpConversationWriter;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The generated seed inputs of every fuzz target, built with the real encoders and negotiators,
 * keyed by their path under the resources root: {@code io/jrnic/fuzz/<Class>Inputs/<method>/seed-<name>}.
 * {@link SeedCorpusTest} proves the committed files equal these. The protocol units are {@link SeedFrames}'s.
 */
final class SeedCorpus {
    static final String ROOT = "io/jrnic/fuzz/";
    static final Path SIW_CAPTURE = SiwCaptures.file("rdma_server_client.pcap");

    private final Map<String, byte[]> seeds = new LinkedHashMap<>();

    static Map<String, byte[]> all() {
        SeedCorpus c = new SeedCorpus();
        c.setupFrames();
        c.handshakes();
        c.fpdus();
        c.rdmap();
        c.ddp();
        c.captures();
        c.placement();
        return c.seeds;
    }

    private void put(String target, String method, String name, byte[] bytes) {
        seeds.put(ROOT + target + "Inputs/" + method + "/seed-" + name, bytes);
    }

    // --- MPA -------------------------------------------------------------------------------

    private void setupFrames() {
        MpaSetupFrame req = new MpaInitiator(MpaOptions.builder().privateData(ascii("hello")).build()).requestFrame();
        put("MpaSetupFrameFuzzTest", "decode", "request-rev2", cat(new byte[] {0}, encode(req)));
        MpaSetupFrame rep1 = MpaSetupFrame.builder(MpaSetupFrame.Kind.REPLY).revision(1).markers(true).crc(true)
                .privateData(ascii("v1 reply")).build();
        put("MpaSetupFrameFuzzTest", "decode", "reply-rev1-junk", cat(new byte[] {(byte) 0x31}, encode(rep1)));
        MpaSetupFrame reject = MpaSetupFrame.builder(MpaSetupFrame.Kind.REPLY).reject(true)
                .v2Words(new MpaV2Words(16, 16, true, false, true, false)).privateData(ascii("no")).build();
        put("MpaSetupFrameFuzzTest", "decode", "reply-reject-p2p", cat(new byte[] {(byte) 0x03}, encode(reject)));
        MpaSetupFrame reserved = MpaSetupFrame.builder(MpaSetupFrame.Kind.REQUEST).revision(1).enhanced(true)
                .reservedFlags(0x05).build();
        put("MpaSetupFrameFuzzTest", "decode", "request-rev1-h-reserved", cat(new byte[] {0}, encode(reserved)));
    }

    private void handshakes() {
        byte[] defaults = MpaHandshakeFuzzTest.writeOptions(new SeedWriter(), 0x02, 0x07, 128, 16, 16, new byte[0], 512)
                .toByteArray();
        byte[] p2pCrcRequired = MpaHandshakeFuzzTest.writeOptions(new SeedWriter(), 0x04 | 0x20, 0x06, 64, 8, 4,
                ascii("pd"), 0).toByteArray();
        byte[] rev1Markers = MpaHandshakeFuzzTest.writeOptions(new SeedWriter(), 0x01 | 0x08 | 0x10, 0, 16, 4, 4,
                new byte[0], 256).toByteArray();
        byte[] fpdu = fpduStream(true, false, 0, 40);
        for (Map.Entry<String, byte[]> e : Map.of("defaults", defaults, "p2p", p2pCrcRequired, "rev1-markers",
                rev1Markers).entrySet()) {
            MpaOptions ours = MpaHandshakeFuzzTest.readOptions(new FuzzInput(e.getValue()));
            // initiator seeds: the Reply of a real responder (accepting or rejecting) to our Request
            for (boolean reject : new boolean[] {false, true}) {
                MpaOptions theirs = MpaOptions.builder().p2p(ours.p2p()).markersRx(!ours.markersRx())
                        .privateData(ascii("resp")).build();
                byte[] reply = replyTo(ours, theirs, reject);
                byte[] peer = reject ? reply : cat(reply, fpdu);
                put("MpaHandshakeFuzzTest", "initiator", e.getKey() + (reject ? "-rejected" : "-accepted"),
                        cat(e.getValue(), chunkSizes(0), new byte[] {0}, peer));
                put("MpaHandshakeFuzzTest", "initiator", e.getKey() + "-chunked" + (reject ? "-rejected" : ""),
                        cat(e.getValue(), chunkSizes(3, 17, 1), new byte[] {0}, peer));
            }
            // responder seeds: the Request of a real initiator, accepted or rejected
            int peerRevision = ours.revision() == 1 ? 2 : 1;
            MpaOptions peerOptions = MpaOptions.builder().revision(peerRevision).privateData(ascii("init")).build();
            byte[] request = requestOf(peerOptions);
            byte[] sameRev = requestOf(MpaOptions.builder().revision(ours.revision()).p2p(ours.p2p()).build());
            put("MpaHandshakeFuzzTest", "responder", e.getKey() + "-accept",
                    cat(e.getValue(), chunkSizes(0), new byte[] {0}, request));
            put("MpaHandshakeFuzzTest", "responder", e.getKey() + "-reject-chunked",
                    cat(e.getValue(), chunkSizes(5, 0, 20), new byte[] {1}, request));
            put("MpaHandshakeFuzzTest", "responder", e.getKey() + "-same-revision-pipelined",
                    cat(e.getValue(), chunkSizes(0), new byte[] {0}, sameRev, fpdu));
        }
    }

    private void fpdus() {
        String t = "FpduDecoderFuzzTest";
        int[][] configs = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3 | 8, 127}};
        for (int[] cfg : configs) {
            boolean crc = (cfg[0] & 1) != 0;
            boolean markers = (cfg[0] & 2) != 0;
            long start = 4L * cfg[1];
            byte[] stream = cat(fpduStream(crc, markers, start, 30), fpduStream(crc, markers,
                    start + fpduStream(crc, markers, start, 30).length, 1000));
            SeedWriter w = new SeedWriter().u8(cfg[0]);
            if ((cfg[0] & 8) != 0) {
                w.u16(cfg[1]);
            }
            byte[] head = w.toByteArray();
            String name = (crc ? "crc" : "nocrc") + "-" + (markers ? "markers" : "nomarkers") + "-at" + start;
            put(t, "arbitraryStream", name, cat(head, chunkSizes(0), stream));
            put(t, "arbitraryStream", name + "-chunked-cut", cat(head, chunkSizes(1, 7, 500),
                    Arrays.copyOf(stream, stream.length - 3)));
            if (crc) {
                byte[] bad = stream.clone();
                bad[bad.length - 1] ^= 1;
                put(t, "arbitraryStream", name + "-badcrc-continue", cat(new byte[] {(byte) (cfg[0] | 4)},
                        Arrays.copyOfRange(head, 1, head.length), chunkSizes(0), bad));
            }
        }
        // payload placement (bit 4, spec-notes/placement.md): the 1000-octet FPDU is cut after its head and placed,
        // its CRC good, then bad (no continueAfterError: the decoder stops at the placed FPDU)
        byte[] placed = cat(fpduStream(true, false, 0, 30), fpduStream(true, false, 36, 1000));
        put(t, "arbitraryStream", "crc-nomarkers-at0-place-chunked", cat(new byte[] {0x11}, chunkSizes(1, 7, 500, 100),
                placed));
        byte[] placedBad = placed.clone();
        placedBad[placedBad.length - 1] ^= 1;
        put(t, "arbitraryStream", "crc-nomarkers-at0-place-badcrc", cat(new byte[] {0x11}, chunkSizes(1, 7, 500, 100),
                placedBad));
        put(t, "roundTrip", "place-crc-big", new SeedWriter().u8(0x1D).u32(0).u8(2).u16(40000).u16(65000)
                .u16(20001).u64(4).bytes(chunkSizes(3, 100, 30000, 60000)).toByteArray());
        put(t, "roundTrip", "small-crc", new SeedWriter().u8(0x01).u32(0).u8(2).u16(0).u16(33).u64(1)
                .bytes(chunkSizes(2, 1, 9)).toByteArray());
        put(t, "roundTrip", "markers-crc-1100", new SeedWriter().u8(0x07).u32(100).u8(4).u16(1000).u16(507)
                .u16(12).u16(1099).u64(2).bytes(chunkSizes(3, 511, 512, 513)).toByteArray());
        put(t, "roundTrip", "markers-big", new SeedWriter().u8(0x0E).u32(0xFFFF_FFFFL).u8(1).u16(65535).u64(3)
                .bytes(chunkSizes(0)).toByteArray());
    }

    // --- RDMAP / DDP -----------------------------------------------------------------------

    private void rdmap() {
        String v = "RdmapValidatorFuzzTest";
        put(v, "validate", "send", cat(new byte[] {0}, untagged(RdmapOpcode.SEND, 0, 1, 0, ascii("payload"))));
        put(v, "validate", "read-request-offset", cat(new byte[] {(byte) 0x07},
                untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 1, 0, new byte[28])));
        put(v, "validate", "write", cat(new byte[] {0}, tagged(RdmapOpcode.RDMA_WRITE, 0x1234, 0x1000, ascii("data"))));
        put(v, "validate", "atomic-request-7306", cat(new byte[] {1},
                untagged(RdmapOpcode.ATOMIC_REQUEST, 1, 1, 0, new byte[48])));
        put(v, "validate", "terminate", cat(new byte[] {0}, terminate(Terminate.of(DdpError.INVALID_QN), 1)));

        String t = "TerminateFuzzTest";
        byte[] sendUlpdu = untagged(RdmapOpcode.SEND, 7, 1, 0, new byte[0]);
        byte[] readUlpdu = untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 1, 0, new byte[28]);
        byte[] writeUlpdu = tagged(RdmapOpcode.RDMA_WRITE, 5, 0, new byte[0]);
        Terminate plain = Terminate.of(RdmapError.UNEXPECTED_OPCODE);
        Terminate withDdp = Terminate.of(DdpError.INVALID_QN).withDdpSegment(Unpooled.wrappedBuffer(sendUlpdu), 0,
                sendUlpdu.length, true);
        Terminate withBoth = Terminate.of(RdmapError.INVALID_STAG).withDdpSegment(Unpooled.wrappedBuffer(readUlpdu), 0,
                readUlpdu.length, true).withRdmapHeader(Unpooled.wrappedBuffer(readUlpdu), 18);
        Terminate tagged = Terminate.of(DdpError.BASE_OR_BOUNDS).withDdpSegment(Unpooled.wrappedBuffer(writeUlpdu), 0,
                writeUlpdu.length, false);
        int i = 0;
        for (Terminate term : new Terminate[] {plain, withDdp, withBoth, tagged}) {
            byte[] ulpdu = terminate(term, 1);
            put(t, "decode", "strict-" + i, cat(new byte[] {0, 0, 0, 0, 0}, ulpdu));
            put(t, "decode", "strict-from-control-" + i, cat(new byte[] {2, 0, 0, 0, 0},
                    Arrays.copyOfRange(ulpdu, 18, ulpdu.length)));
            put(t, "decode", "siw-" + i, cat(new byte[] {1, 0, 0, 0, 0}, siwLayout(ulpdu)));
            i++;
        }
        put(t, "roundTrip", "plain", new SeedWriter().u8(0x02).u8(0x06).u8(0x00).u16(0).u32(1).toByteArray());
        put(t, "roundTrip", "ddp-untagged", new SeedWriter().u8(0x12).u8(0x01).u8(0x03).u16(18).u32(1)
                .bytes(sendUlpdu).toByteArray());
        put(t, "roundTrip", "ddp-tagged-rdmap", new SeedWriter().u8(0x11).u8(0x00).u8(0x0E | 0x30).u16(14)
                .u32(0xFFFF_FFFFL).bytes(writeUlpdu).bytes(new byte[28]).toByteArray());
    }

    private void ddp() {
        String u = "UntaggedReceiverFuzzTest";
        int send = RdmapControl.controlWord(RdmapOpcode.SEND, false);
        int sendLast = RdmapControl.controlWord(RdmapOpcode.SEND, true);
        // 1 queue, ring 4: post 100 and 50, two segments of message 1 (60 then 40, L), one of message 2, poll
        put(u, "sequence", "two-messages", new SeedWriter().u8(0).u8(3)
                .u8(0).u16(100).u8(0).u16(50)
                .u8(2).u16(send).u8(0).u8(2).u16(60)
                .u8(2).u16(sendLast).u8(0).u8(2).u16(40)
                .u8(2).u16(sendLast).u8(1).u8(2).u16(50)
                .u8(5).u8(5).u8(7).toByteArray());
        // 4 queues, ring 2: errors of each kind, then a flush
        put(u, "sequence", "errors", new SeedWriter().u8(3).u8(1)
                .u8(0x08).u16(10)
                .u8(0x0A).u16(sendLast & ~DdpControl.DDP_VERSION_MASK).u8(0).u8(2).u16(1)
                .u8(0x8A).u16(sendLast).u32(9).u8(0).u8(2).u16(1)
                .u8(0x0B).u16(sendLast).u32(0).u8(0).u8(2).u16(1)
                .u8(0x0A).u16(sendLast).u8(3).u8(2).u16(1)
                .u8(0x0A).u16(sendLast).u8(0).u8(3).u32(5).u16(1)
                .u8(0x0A).u16(sendLast).u8(0).u8(2).u16(11)
                .u8(0x0F).toByteArray());

        String tp = "TaggedPlacementFuzzTest";
        int write = RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true);
        put(tp, "check", "region-hits-and-misses", new SeedWriter().u8(0).u8(2)
                .u32(0x1234).u8(0x13).u64(0x10000).u16(4096)
                .u32(0x99).u8(0x04).u64(0).u64(1L << 40)
                .u8(1).u16(write).u8(0).u32(100).u8(0).u16(200)
                .u8(1).u16(write).u8(0).u32(4000).u8(0).u16(200)
                .u8(1).u16(write).u8(1).u32(0).u8(0).u16(1)
                .u8(1 | 16).u16(write).u8(0).u32(0).u8(1).u16(0)
                .u8(0).u16(write).u8(0).u32(0).u8(0).u16(5)
                .u8(1 | 4).u16(write).u8(0).u64(-1L).u16(1).toByteArray());

        put(tp, "check", "invalid-and-foreign-regions", new SeedWriter().u8(1).u8(3)
                .u32(1).u8(0x10 | 0x02).u64(0).u16(100)
                .u32(2).u8(0x10 | 0x01 | 0x02).u64(-200L).u16(300)
                .u32(3).u8(0x10 | 0x01 | 0x04).u64(7).u16(0)
                .u8(1).u16(write).u8(0).u32(0).u8(0).u16(1)
                .u8(1).u16(write).u8(1).u32(0).u8(0).u16(1)
                .u8(1).u16(write).u8(1).u32(150).u8(0).u16(100)
                .u8(1 | 16).u16(write).u8(2).u32(0).u8(0).u16(0)
                .u8(1 | 16).u16(write).u8(2).u32(0).u8(1).u16(0).toByteArray());

        String s = "DdpSegmenterFuzzTest";
        put(s, "segment", "untagged-send", new SeedWriter().u8(0).u16(1000).u8(18).u32(5000).u64(0).toByteArray());
        put(s, "segment", "tagged-write", new SeedWriter().u8(1).u16(1424).u8(14).u32(65536).u64(0x7000_0000L)
                .toByteArray());
        put(s, "segment", "empty", new SeedWriter().u8(1).u16(100).u8(14).u32(0).u64(5).toByteArray());
        put(s, "segment", "tagged-near-2^64", new SeedWriter().u8(1 | 4).u16(65535).u8(14).u32(100).u32(50)
                .toByteArray());
    }

    // --- the engine ------------------------------------------------------------------------

    /** PlacementFuzzTest: records of op, length and octets (see its comment), then reads of the plan. */
    private void placement() {
        String t = "PlacementFuzzTest";
        byte[] write = tagged(RdmapOpcode.RDMA_WRITE, 0, 0, new byte[0]); // STag and TaggedOffset filled in by op
        byte[] send = untagged(RdmapOpcode.SEND, 0, 1, 0, new byte[0]);
        byte[] send2 = untagged(RdmapOpcode.SEND, 0, 2, 0, ascii("after"));
        put(t, "feed", "write-60k-region0", new SeedWriter().u8(0x1A).u16(write.length).bytes(write).u32(4096).u16(60_000)
                .toByteArray());
        put(t, "feed", "send-20k-short-reads", new SeedWriter().u8(0x10).u16(send.length).bytes(send).u16(20_000)
                .u8(0x81).u16(999).toByteArray());
        put(t, "feed", "write-region1-reads-cut", new SeedWriter().u8(0x1E).u16(write.length).bytes(write).u32(50_000)
                .u16(30_000).u8(0x82).u16(4095).u8(0x80).u16(0).toByteArray());
        put(t, "feed", "write-bad-crc-then-send", new SeedWriter().u8(0x3A).u16(write.length).bytes(write).u32(0)
                .u16(30_000).u8(0x00).u16(send2.length).bytes(send2).u8(0x82).u16(4095).toByteArray());
    }

    // --- interop ---------------------------------------------------------------------------

    private void captures() {
        try {
            put("CaptureDecoderFuzzTest", "decode", "siw-rdma-server-client", Files.readAllBytes(SIW_CAPTURE));
            put("CaptureDecoderFuzzTest", "decode", "synthetic-crc", syntheticCapture(false));
            put("CaptureDecoderFuzzTest", "decode", "synthetic-terminate", syntheticCapture(true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String r = "TcpReassemblerFuzzTest";
        byte[] stream = ascii("The quick brown fox jumps over the lazy dog, twice: the quick brown fox.");
        put(r, "reassemble", "in-order", new SeedWriter().u32(1000).u8(0).u8(3)
                .u16(0).u16(19).u8(0).u16(20).u16(29).u8(1).u16(50).u16(100).u8(2).bytes(stream).toByteArray());
        put(r, "reassemble", "reordered-overlapping-wrap", new SeedWriter().u32(0xFFFF_FFF0L).u8(0).u8(4)
                .u16(30).u16(30).u8(0).u16(0).u16(40).u8(1).u16(10).u16(5).u8(2).u16(60).u16(100).u8(0)
                .bytes(stream).toByteArray());
        put(r, "reassemble", "small-bound", new SeedWriter().u32(7).u8(1).u8(2)
                .u16(40).u16(100).u8(0).u16(0).u16(10).u8(1).bytes(stream).toByteArray());
    }

    private static byte[] syntheticCapture(boolean withTerminate) throws IOException {
        InetSocketAddress i = new InetSocketAddress("10.0.0.1", 40000);
        InetSocketAddress r = new InetSocketAddress("10.0.0.2", 4791);
        MpaOptions io = MpaOptions.defaults();
        ByteBuf reqBuf = new MpaInitiator(io).request();
        byte[] req;
        try {
            req = bytes(reqBuf);
        } finally {
            reqBuf.release();
        }
        byte[] rep = replyTo(io, MpaOptions.defaults(), false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TcpConversationWriter w = new TcpConversationWriter(out, i, r)) {
            w.handshake();
            w.send(true, req);
            w.send(false, rep);
            FpduEncoder toR = new FpduEncoder(true, false);
            FpduEncoder toI = new FpduEncoder(true, false);
            w.send(true, fpdu(toR, untagged(RdmapOpcode.SEND, 0, 1, 0, ascii("hello siw"))));
            w.send(true, fpdu(toR, untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 1, 0, new byte[28])));
            w.send(false, fpdu(toI, tagged(RdmapOpcode.RDMA_READ_RESPONSE, 0, 0, new byte[64])));
            if (withTerminate) {
                byte[] bad = untagged(RdmapOpcode.SEND, 9, 1, 0, new byte[0]);
                w.send(false, fpdu(toI, terminate(Terminate.of(DdpError.INVALID_QN)
                        .withDdpSegment(Unpooled.wrappedBuffer(bad), 0, bad.length, true), 1)));
            }
        }
        return out.toByteArray();
    }

    private static byte[] chunkSizes(int... sizes) {
        return Chunks.writeSizes(new SeedWriter(), sizes).toByteArray();
    }
}
