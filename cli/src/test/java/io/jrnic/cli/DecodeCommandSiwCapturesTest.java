package io.jrnic.cli;

import io.jrnic.interop.decode.SiwCaptures;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jrnic.interop.decode.TsharkOracle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** {@code jrnic decode --format csv} against tshark on every real siw capture. */
class DecodeCommandSiwCapturesTest {

    /** Violations the real siw captures do contain (see spec-notes/decode-checks.md), by capture. */
    private static List<String> expectedViolations(String capture, List<String> csvRows) {
        if (!capture.equals("ucmatose.pcap")) {
            return List.of();
        }
        // ucmatose without peer-to-peer mode: siw's Responder sends its Sends first on each stream
        return csvRows.stream().map(r -> r.split(",")[0]).distinct()
                .map(s -> "ERROR RESPONDER_FIRST stream " + s).collect(Collectors.toList());
    }

    private static List<Path> captures() {
        List<Path> l = SiwCaptures.all();
        assertFalse(l.isEmpty(), "no capture in " + SiwCaptures.dir());
        return l;
    }

    @TestFactory
    Stream<DynamicTest> csvAgreesWithTsharkFieldForField() throws IOException {
        TsharkOracle tshark = TsharkOracle.find();
        assumeTrue(tshark != null, "tshark not installed");
        return captures().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            CliRun run = CliRun.of("decode", "--format", "csv", p.toString());
            List<String> lines = run.outLines();
            assertEquals("stream,dir,ulpdu_length,opcode,tagged,last,stag,to,qn,msn,mo,crc", lines.get(0));
            List<String> ours = lines.subList(1, lines.size());
            List<String> theirs = tshark.fpduRows(p);
            assertEquals(theirs.size(), ours.size(), "FPDU count");
            for (int i = 0; i < ours.size(); i++) {
                assertEquals(theirs.get(i), ours.get(i), "FPDU row " + i);
            }
            List<String> expected = expectedViolations(p.getFileName().toString(), ours);
            List<String> got = run.errLines().stream().map(l -> l.replaceAll(" (i2r|r2i) frame .*", ""))
                    .collect(Collectors.toList());
            assertEquals(expected, got, run.err());
            assertEquals(expected.isEmpty() ? 0 : DecodeCommand.EXIT_VIOLATIONS, run.exit());
        }));
    }
}
