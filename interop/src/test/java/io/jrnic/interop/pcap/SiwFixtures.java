package io.jrnic.interop.pcap;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Locates /work/shared/fixtures/siw-captures by walking up from the working directory. */
public final class SiwFixtures {
    private SiwFixtures() {
    }

    public static Path dir() {
        String override = System.getenv("JRNIC_SIW_CAPTURES");
        if (override != null && Files.isDirectory(Paths.get(override))) {
            return Paths.get(override);
        }
        for (Path p = Paths.get(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            Path c = p.resolve("shared/fixtures/siw-captures");
            if (Files.isDirectory(c)) {
                return c;
            }
        }
        return null;
    }

    /** All fixture captures; the test is skipped when the fixtures are absent. */
    public static List<Path> captures() throws IOException {
        Path d = dir();
        assumeTrue(d != null, "siw capture fixtures not found above " + System.getProperty("user.dir"));
        try (Stream<Path> s = Files.list(d)) {
            List<Path> l = s.filter(f -> f.toString().endsWith(".pcap")).sorted().collect(Collectors.toList());
            assumeTrue(!l.isEmpty(), "no .pcap in " + d);
            return l;
        }
    }
}
