package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A guest image made by interop/siw-guest/build-image.sh: {@code vmlinuz}, {@code initramfs.img}
 * and {@code versions.txt} in one directory of the cache ({@code vmlinux}, the kernel uncompressed, is made there
 * at the first boot: {@link #bootKernel()}).
 */
public record SiwImage(Path dir) {
    /** Where the build script is, relative to the repository root. */
    public static final String SCRIPT = "interop/siw-guest/build-image.sh";

    public Path kernel() {
        return dir.resolve("vmlinuz");
    }

    /**
     * The kernel QEMU is given: the uncompressed PVH ELF made from {@link #kernel()} (and kept beside it), or the
     * bzImage itself where that cannot be made or {@code -Djrnic.siw.pvh=false} ({@link PvhKernel}).
     */
    public Path bootKernel() {
        return PvhKernel.forBoot(this);
    }

    public Path initramfs() {
        return dir.resolve("initramfs.img");
    }

    /**
     * The image to use: system property {@code jrnic.siw.image} or environment variable
     * {@code JRNIC_SIW_IMAGE} (a directory), else {@code $JRNIC_SIW_CACHE/current}, where
     * JRNIC_SIW_CACHE defaults to ~/.cache/jrnic-siw. Empty when no complete image is there.
     */
    public static Optional<SiwImage> find() {
        String explicit = System.getProperty("jrnic.siw.image", System.getenv("JRNIC_SIW_IMAGE"));
        Path dir = explicit != null ? Paths.get(explicit) : cacheDir().resolve("current");
        SiwImage image = new SiwImage(dir);
        return Files.isRegularFile(image.kernel()) && Files.isRegularFile(image.initramfs())
                ? Optional.of(image) : Optional.empty();
    }

    public static Path cacheDir() {
        String c = System.getenv("JRNIC_SIW_CACHE");
        return c != null ? Paths.get(c) : Paths.get(System.getProperty("user.home"), ".cache", "jrnic-siw");
    }

    /** The qemu-system-x86_64 on PATH, if any. */
    public static Optional<Path> qemu() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Paths.get(d.isEmpty() ? "." : d, "qemu-system-x86_64");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Why the harness cannot run here, or empty when qemu, the image and root are all available. */
    public static Optional<String> unavailableReason() {
        if (qemu().isEmpty()) {
            return Optional.of("qemu-system-x86_64 not on PATH (apt-get install qemu-system-x86)");
        }
        if (find().isEmpty()) {
            return Optional.of("no siw guest image under " + cacheDir() + " (run " + SCRIPT + ")");
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("network namespaces and taps need root");
        }
        return Optional.empty();
    }

    /** The build script found by walking up from the working directory, if present. */
    public static Optional<Path> buildScript() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path s = p.resolve(SCRIPT);
            if (Files.isRegularFile(s)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * Runs the build script (a no-op when the cache already holds an image for the current
     * package versions) and returns the image it reports. Its log goes to {@code log}.
     */
    public static SiwImage build(Path script, Path log, long timeoutSeconds, boolean force)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        if (force) {
            cmd.add("--force");
        }
        Path out = Files.createTempFile("jrnic-siw-build", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException("image build timed out after " + timeoutSeconds + " s, log: " + log);
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0 || lines.isEmpty()) {
                throw new IOException("image build failed (exit " + p.exitValue() + "), log: " + log);
            }
            return new SiwImage(Paths.get(lines.get(lines.size() - 1).trim()));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
