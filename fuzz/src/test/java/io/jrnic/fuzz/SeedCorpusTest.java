package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The committed seed corpora are exactly what {@link SeedCorpus} builds from the real encoders,
 * so a wire-format change cannot leave stale seeds behind. Regenerate with
 * {@code ./mvnw -o test -pl fuzz -am -Dtest=SeedCorpusTest -Djrnic.fuzz.writeSeeds=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class SeedCorpusTest {
    private static final Path RESOURCES = Path.of("src/test/resources");

    @Test
    void committedSeedsMatchTheGenerator() throws IOException {
        Map<String, byte[]> seeds = SeedCorpus.all();
        boolean write = Boolean.getBoolean("jrnic.fuzz.writeSeeds");
        for (Map.Entry<String, byte[]> e : seeds.entrySet()) {
            Path p = RESOURCES.resolve(e.getKey());
            if (write) {
                Files.createDirectories(p.getParent());
                Files.write(p, e.getValue());
            }
            assertTrue(Files.exists(p), () -> "missing seed " + p + " (regenerate, see the class comment)");
            assertArrayEquals(e.getValue(), Files.readAllBytes(p), () -> "stale seed " + p);
        }
    }

    @Test
    void everyFuzzTestHasSeeds() throws IOException {
        String[] targets = {"MpaSetupFrameFuzzTest/decode", "MpaHandshakeFuzzTest/initiator",
            "MpaHandshakeFuzzTest/responder", "FpduDecoderFuzzTest/arbitraryStream", "FpduDecoderFuzzTest/roundTrip",
            "RdmapValidatorFuzzTest/validate", "TerminateFuzzTest/decode", "TerminateFuzzTest/roundTrip",
            "UntaggedReceiverFuzzTest/sequence", "TaggedPlacementFuzzTest/check", "DdpSegmenterFuzzTest/segment",
            "CaptureDecoderFuzzTest/decode", "TcpReassemblerFuzzTest/reassemble"};
        for (String t : targets) {
            String[] parts = t.split("/");
            Path dir = RESOURCES.resolve(SeedCorpus.ROOT + parts[0] + "Inputs/" + parts[1]);
            try (var files = Files.list(dir)) {
                assertTrue(files.count() >= 2, () -> "fewer than 2 seeds in " + dir);
            }
        }
    }
}
