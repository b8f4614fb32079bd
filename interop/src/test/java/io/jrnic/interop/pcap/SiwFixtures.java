package io.jrnic.interop.pcap;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.jrnic.interop.decode.SiwCaptures;
import java.nio.file.Path;
import java.util.List;

/** The repository's siw captures ({@link SiwCaptures}); a missing or empty directory fails the test. */
public final class SiwFixtures {
    private SiwFixtures() {
    }

    public static Path dir() {
        return SiwCaptures.dir();
    }

    public static List<Path> captures() {
        List<Path> l = SiwCaptures.all();
        assertFalse(l.isEmpty(), "no .pcap in " + SiwCaptures.dir());
        return l;
    }
}
