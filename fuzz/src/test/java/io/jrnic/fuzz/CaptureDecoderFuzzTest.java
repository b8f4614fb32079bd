package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.interop.decode.CaptureDecoder;
import io.jrnic.interop.decode.DecodeOptions;
import io.jrnic.interop.decode.DecodeSink;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.interop.decode.Violation;
import io.jrnic.interop.pcap.PcapFormatException;
import io.jrnic.mpa.MpaSetupFrame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PcapReader + PacketDecoder + TcpReassembler + MpaStreamAnalyzer through CaptureDecoder.decode,
 * on arbitrary files (the input is the file), with the RFC and the siw Terminate layouts.
 */
class CaptureDecoderFuzzTest {
    private static Path file;

    /**
     * Properties: the outcome is a Summary or PcapFormatException, nothing else; the output is
     * bounded by the input (TCP segments at most the records, every FPDU at least 8 captured
     * octets, frame numbers within the records read, a bounded number of violations per record
     * and FPDU); FPDU stream offsets strictly increase per stream and direction; decoding is deterministic (the same
     * file twice gives the same summary and the same counts).
     */
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] data) throws IOException {
        Path f = tempFile();
        Files.write(f, data);
        run(f, data.length, new DecodeOptions(false, MpaSetupFrame.MAX_PRIVATE_DATA));
        run(f, data.length, new DecodeOptions(true, MpaSetupFrame.SIW_MAX_PRIVATE_DATA));
    }

    private static void run(Path f, int size, DecodeOptions options) throws IOException {
        Counter sink = new Counter();
        CaptureDecoder.Summary s;
        try {
            s = CaptureDecoder.decode(f, options, sink);
        } catch (PcapFormatException e) {
            return;
        }
        assertTrue(s.packets() >= 0 && s.tcpSegments() <= s.packets(), s::toString);
        assertTrue(s.packets() * 16 <= size, "more records than the file can hold");
        assertTrue(sink.fpdus * 8 <= size, "more FPDUs than captured octets allow");
        assertTrue(sink.setups <= 2L * s.mpaStreams(), "at most a Request and a Reply per stream");
        assertTrue(sink.maxFrame <= s.packets(), "a frame number beyond the records read");
        assertTrue(sink.violations <= 16 * (s.packets() + sink.fpdus + 2L * s.mpaStreams() + 1),
                () -> sink.violations + " violations for " + s);
        // the decoder keeps no state between files: a second decode of the same file reports the same
        Counter again = new Counter();
        assertEquals(s, CaptureDecoder.decode(f, options, again), "the same file decoded twice");
        assertEquals(sink.counts(), again.counts(), "the same file decoded twice");
    }

    private static synchronized Path tempFile() throws IOException {
        if (file == null) {
            file = Files.createTempFile("jrnic-fuzz-", ".pcap");
            file.toFile().deleteOnExit();
        }
        return file;
    }

    static final class Counter implements DecodeSink {
        long setups;
        long fpdus;
        long violations;
        long maxFrame;
        final Map<String, long[]> lastOffset = new HashMap<>();

        List<Long> counts() {
            return List.of(setups, fpdus, violations, maxFrame);
        }

        @Override
        public void onSetup(SetupRecord setup) {
            setups++;
            maxFrame = Math.max(maxFrame, setup.frame());
            assertTrue(setup.frameInfo() != null);
        }

        @Override
        public void onFpdu(FpduRecord fpdu) {
            fpdus++;
            maxFrame = Math.max(maxFrame, Math.max(fpdu.frame(), fpdu.endFrame()));
            assertTrue(fpdu.frame() <= fpdu.endFrame(), "FPDU ends before it starts");
            assertTrue(fpdu.ulpduLength() >= 0 && fpdu.ulpduLength() <= 0xFFFF);
            long[] prev = lastOffset.computeIfAbsent(fpdu.stream() + " " + fpdu.dir(), k -> new long[] {-1});
            assertTrue(fpdu.streamOffset() > prev[0], "FPDU stream offsets go back within a direction");
            prev[0] = fpdu.streamOffset();
        }

        @Override
        public void onViolation(Violation violation) {
            violations++;
            if (violations > 10_000_000) {
                throw new UncheckedIOException(new IOException("runaway violations"));
            }
            maxFrame = Math.max(maxFrame, violation.frame());
        }
    }
}
