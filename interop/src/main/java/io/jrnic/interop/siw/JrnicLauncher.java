package io.jrnic.interop.siw;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How to start the jrnic CLI ({@code jrnic rping ...}) as a host process: system property
 * {@code jrnic.cli} or environment variable {@code JRNIC_CLI} (a command line split at spaces,
 * e.g. {@code java -cp <classpath> io.jrnic.cli.Jrnic}), else {@code java -jar cli/target/jrnic.jar}
 * found by walking up from the working directory. The interop module cannot depend on cli (cli
 * depends on interop), so the jrnic side always runs as a child process, inside the namespace.
 */
public final class JrnicLauncher {
    private JrnicLauncher() {
    }

    public static Optional<List<String>> find() {
        String explicit = System.getProperty("jrnic.cli", System.getenv("JRNIC_CLI"));
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(List.copyOf(Arrays.asList(explicit.trim().split("\\s+"))));
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path jar = p.resolve("cli/target/jrnic.jar");
            if (Files.isRegularFile(jar)) {
                List<String> cmd = new ArrayList<>();
                cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
                cmd.add("-jar");
                cmd.add(jar.toString());
                return Optional.of(List.copyOf(cmd));
            }
        }
        return Optional.empty();
    }
}
