package io.jrnic.interop.siw;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How to start the jrnic CLI ({@code jrnic rping ...}) as a host process, first match wins:
 * <ol>
 * <li>system property {@code jrnic.cli} or environment variable {@code JRNIC_CLI} (a command line split
 *     at spaces, e.g. {@code java -cp <classpath> io.jrnic.cli.Jrnic});</li>
 * <li>{@code io.jrnic.cli.Jrnic} is on this JVM's class path (the cli module's tests, the shaded jar
 *     running {@code jrnic interop}): this JVM's java with this JVM's class path
 *     ({@link SiwGuest#javaCommand}); no jar needs to be built;</li>
 * <li>{@code java -jar cli/target/jrnic.jar} found by walking up from the working directory.</li>
 * </ol>
 * The interop module cannot depend on cli (cli depends on interop), so the jrnic side always runs
 * as a child process (inside the namespace when a guest is involved). How the child reads siw's
 * Terminates is each case's choice, on its command line ({@code --terminates SIW}).
 */
public final class JrnicLauncher {
    public static final String MAIN = "io.jrnic.cli.Jrnic";
    /** The peers' option for reading siw's Terminates (ConnectOptions.terminateLayout(SIW)). */
    public static final List<String> SIW_TERMINATES = List.of("--terminates", "SIW");

    private JrnicLauncher() {
    }

    public static Optional<List<String>> find() {
        String explicit = System.getProperty("jrnic.cli", System.getenv("JRNIC_CLI"));
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(List.copyOf(Arrays.asList(explicit.trim().split("\\s+"))));
        }
        if (onClassPath()) {
            return Optional.of(List.of(java(), "-cp", System.getProperty("java.class.path"), MAIN));
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path jar = p.resolve("cli/target/jrnic.jar");
            if (Files.isRegularFile(jar)) {
                List<String> cmd = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
                return Optional.of(List.copyOf(cmd));
            }
        }
        return Optional.empty();
    }

    static boolean onClassPath() {
        try {
            Class.forName(MAIN, false, JrnicLauncher.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }
}
