package io.jrnic.interop.decode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The recorded Linux siw captures that ship with the repository ({@code captures/siw}: rping, ucmatose and
 * rdma_server/rdma_client traffic with tshark summaries): the fixtures of the decoder, CLI and fuzz tests and
 * a first input for {@code jrnic decode}. Found, in order, through the system property
 * {@code jrnic.siwCaptures} (the build sets it for every test JVM), the environment variable
 * {@code JRNIC_SIW_CAPTURES}, or by walking up from the working directory to a {@code captures/siw}.
 */
public final class SiwCaptures {
    public static final String PROPERTY = "jrnic.siwCaptures";

    private SiwCaptures() {
    }

    /**
     * The directory.
     *
     * @throws IllegalStateException when none of the three ways finds it
     */
    public static Path dir() {
        for (String s : new String[] {System.getProperty(PROPERTY), System.getenv("JRNIC_SIW_CAPTURES")}) {
            if (s != null && Files.isDirectory(Path.of(s))) {
                return Path.of(s);
            }
        }
        for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            Path c = p.resolve("captures").resolve("siw");
            if (Files.isDirectory(c)) {
                return c;
            }
        }
        throw new IllegalStateException("siw captures not found: set -D" + PROPERTY
                + " or JRNIC_SIW_CAPTURES, or run inside the jrnic repository (captures/siw)");
    }

    /** One capture of the directory by file name. */
    public static Path file(String name) {
        Path f = dir().resolve(name);
        if (!Files.isRegularFile(f)) {
            throw new IllegalStateException("siw capture missing: " + f);
        }
        return f;
    }

    /** Every {@code .pcap} of the directory, sorted by name. */
    public static List<Path> all() {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(f -> f.toString().endsWith(".pcap")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
