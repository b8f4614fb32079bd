package io.jrnic.cli;

import io.jrnic.interop.decode.SiwCaptures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.pcap.TcpConversationWriter;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecodeCommandTest {
    @TempDir
    Path tmp;

    private static byte[] setup(MpaSetupFrame.Kind kind) {
        ByteBuf b = Unpooled.buffer();
        MpaSetupFrame.builder(kind).revision(2).enhanced(true).crc(true).v2Words(MpaV2Words.of(4, 4))
                .privateData(new byte[0]).build().encode(b);
        byte[] out = ByteBufUtil.getBytes(b);
        b.release();
        return out;
    }

    private static byte[] sends(long... msns) {
        FpduEncoder enc = new FpduEncoder(true, false);
        ByteBuf out = Unpooled.buffer();
        for (long msn : msns) {
            ByteBuf u = Unpooled.buffer();
            u.writeShort(RdmapControl.controlWord(RdmapOpcode.SEND, true)).writeInt(0).writeInt(0).writeInt((int) msn)
                    .writeInt(0).writeBytes(new byte[] {1, 2, 3});
            enc.encode(u, out);
            u.release();
        }
        byte[] b = ByteBufUtil.getBytes(out);
        out.release();
        return b;
    }

    private Path capture(byte[] i2rFpdus) throws IOException {
        Path f = tmp.resolve("c.pcap");
        try (OutputStream o = Files.newOutputStream(f);
             TcpConversationWriter w = new TcpConversationWriter(o, new InetSocketAddress("10.9.0.1", 40000),
                     new InetSocketAddress("10.9.0.2", 7174))) {
            w.handshake();
            w.send(true, setup(MpaSetupFrame.Kind.REQUEST));
            w.send(false, setup(MpaSetupFrame.Kind.REPLY));
            w.send(true, i2rFpdus);
        }
        return f;
    }

    @Test
    void textOutputHasOneLinePerSetupFrameAndFpduThenTheSummary() throws IOException {
        CliRun run = CliRun.of("decode", capture(sends(1, 2)).toString());
        assertEquals(0, run.exit(), run.err());
        List<String> l = run.outLines();
        assertEquals(5, l.size(), run.out());
        assertEquals("stream 0 i2r frame 4  MPA Request rev 2 M0 C1 R0 H1 PD_Length 4 IRD 4 ORD 4  10.9.0.1:40000 > 10.9.0.2:7174", l.get(0));
        assertTrue(l.get(1).startsWith("stream 0 r2i frame 5  MPA Reply rev 2 M0 C1"), l.get(1));
        assertEquals("stream 0 i2r frame 6  len 21 op 0x3 T0 L1 QN 0 MSN 1 MO 0 crc good  Send", l.get(2));
        assertEquals("stream 0 i2r frame 6  len 21 op 0x3 T0 L1 QN 0 MSN 2 MO 0 crc good  Send", l.get(3));
        assertEquals("summary: 6 packets, 6 TCP segments, 1 MPA streams, 2 FPDUs; 0 violations, 0 warnings, 0 notes", l.get(4));
    }

    @Test
    void csvModeWritesViolationsToStderrAndExitsOne() throws IOException {
        CliRun run = CliRun.of("decode", "--format", "csv", capture(sends(1, 3)).toString());
        assertEquals(DecodeCommand.EXIT_VIOLATIONS, run.exit());
        assertEquals(List.of("stream,dir,ulpdu_length,opcode,tagged,last,stag,to,qn,msn,mo,crc",
                "0,i2r,21,0x03,0,1,,,0,1,0,good", "0,i2r,21,0x03,0,1,,,0,3,0,good"), run.outLines());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().startsWith("ERROR MSN_SEQUENCE stream 0 i2r frame 6 offset 28: QN 0: MSN 3, expected 2 (gap) "
                + "[RFC 5041 section 5.3"), run.err());
    }

    @Test
    void notesAloneKeepExitCodeZero() throws IOException {
        byte[] f = sends(1, 2);
        CliRun run = CliRun.of("decode", capture(Arrays.copyOf(f, f.length - 3)).toString());
        assertEquals(0, run.exit(), run.out());
        assertTrue(run.out().contains("NOTE CAPTURE_INCOMPLETE stream 0 i2r frame 6 offset 28: capture ends inside an FPDU"),
                run.out());
    }

    @Test
    void truncatedCaptureGivesAPreciseErrorAndExitTwo() throws IOException {
        byte[] whole = Files.readAllBytes(capture(sends(1)));
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length - 10));
        CliRun run = CliRun.of("decode", cut.toString());
        assertEquals(DecodeCommand.EXIT_UNREADABLE, run.exit());
        int lastRecord = whole.length - (16 + 14 + 40 + 28);  // record 6: header, Ethernet, IPv4+TCP, one 28-byte FPDU
        assertEquals("jrnic decode: " + cut + ": record 6 at byte " + lastRecord + ": truncated packet data, "
                + (14 + 40 + 28 - 10) + " of " + (14 + 40 + 28) + " bytes", run.err().trim());
    }

    @Test
    void garbageAndMissingFilesExitTwoWithoutAStackTrace() throws IOException {
        Path g = tmp.resolve("garbage.pcap");
        Files.write(g, "this is not a capture file at all".getBytes());
        CliRun run = CliRun.of("decode", g.toString());
        assertEquals(DecodeCommand.EXIT_UNREADABLE, run.exit());
        assertEquals("jrnic decode: " + g + ": not a pcap file: magic 0x74686973 at byte 0", run.err().trim());
        CliRun missing = CliRun.of("decode", tmp.resolve("none.pcap").toString());
        assertEquals(DecodeCommand.EXIT_UNREADABLE, missing.exit());
        assertTrue(missing.err().startsWith("jrnic decode: ") && !missing.err().contains("\tat "), missing.err());
    }

    @Test
    void theTerminateLayoutIsTheSharedTerminatesOption() {
        Path bundled = SiwCaptures.file("rping-p2p-crc-siw2siw.pcap");
        for (String layout : new String[] {"RFC", "SIW", "EITHER"}) {
            CliRun run = CliRun.of("decode", "--terminates", layout, bundled.toString());
            assertEquals(0, run.exit(), layout + ": " + run.out() + run.err());
        }
        assertEquals(2, CliRun.of("decode", "--siw-quirks", bundled.toString()).exit(), "the old flag is gone");
        assertTrue(CliRun.of("decode", "--help").out().contains("--terminates=LAYOUT"));
    }

    @Test
    void bundledCaptureDecodesClean() {
        Path bundled = SiwCaptures.file("rping-p2p-crc-siw2siw.pcap");
        CliRun run = CliRun.of("decode", bundled.toString());
        assertEquals(0, run.exit(), run.out());
        assertTrue(run.out().contains("; 0 violations, 0 warnings, 0 notes"), run.out());
    }
}
