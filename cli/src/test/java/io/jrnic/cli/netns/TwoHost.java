package io.jrnic.cli.netns;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jrnic.cli.perf.PerfConfig;
import io.jrnic.cli.soak.SoakServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The two-host harness ({@code interop/netns/twohost.sh}) from a test: namespaces named after this JVM's pid, so
 * that two builds on one machine do not meet; jrnic started inside a namespace as a child JVM with this JVM's class
 * path. Every child is ended in {@link #close()}, and the namespaces go with {@code down}.
 */
final class TwoHost implements AutoCloseable {
    static final Path SCRIPT = Path.of("..", "interop", "netns", "twohost.sh").toAbsolutePath().normalize();

    final String prefix = "j2t" + ProcessHandle.current().pid() % 100_000;
    private final List<Child> children = new CopyOnWriteArrayList<>();

    /** Why the harness cannot run here (not root, no ip netns, no script), or empty. */
    static Optional<String> unavailable() {
        if (!Files.isRegularFile(SCRIPT)) {
            return Optional.of("no " + SCRIPT);
        }
        String probe = "j2tprobe" + ProcessHandle.current().pid() % 100_000;
        try {
            Process p = new ProcessBuilder("ip", "netns", "add", probe).redirectErrorStream(true).start();
            String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return Optional.of("ip netns add not permitted here: " + msg);
            }
            new ProcessBuilder("ip", "netns", "del", probe).start().waitFor(10, TimeUnit.SECONDS);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("no ip command: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** Skips the calling test, with the reason, where the harness cannot run. */
    static void assumeHarness() {
        Optional<String> why = unavailable();
        assumeTrue(why.isEmpty(), () -> "two-host tests skipped: " + why.orElse(""));
    }

    /** The long profile: {@code -Djrnic.twohost.long=true} or {@code JRNIC_TWOHOST_LONG=1}. */
    static boolean longProfile() {
        return Boolean.parseBoolean(System.getProperty("jrnic.twohost.long", "false"))
                || "1".equals(System.getenv("JRNIC_TWOHOST_LONG"));
    }

    static boolean has(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    String ns(char side) {
        return prefix + "-" + side;
    }

    /** The veth end inside host {@code side}. */
    String iface(char side) {
        return prefix + side;
    }

    String addr(char side) {
        return side == 'a' ? "10.231.1.1" : "10.231.1.2";
    }

    /** Runs {@code twohost.sh ARGS} to its end (at most 60 s); returns its output, throws on a non-zero exit. */
    String harness(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JRNIC_NETNS", prefix);
        pb.environment().put("JRNIC_NETNS_NET", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("twohost.sh " + String.join(" ", args) + " did not end");
        }
        if (p.exitValue() != 0) {
            throw new IOException("twohost.sh " + String.join(" ", args) + " exit " + p.exitValue() + ": " + out);
        }
        return out;
    }

    /** Starts {@code jrnic ARGS} inside host {@code side}. */
    Child jrnic(char side, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns(side), java, "-Xmx512m"));
        String quick = System.getProperty(PerfConfig.QUICK_WARM_UP); // the module's test runs set it (pom.xml)
        if (quick != null) {
            cmd.add("-D" + PerfConfig.QUICK_WARM_UP + "=" + quick);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.jrnic.cli.Jrnic"));
        cmd.addAll(List.of(args));
        return start(cmd);
    }

    /** Starts {@code CMD} inside host {@code side}. */
    Child exec(char side, String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns(side)));
        cmd.addAll(List.of(command));
        return start(cmd);
    }

    private Child start(List<String> cmd) throws IOException {
        Child c = new Child(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        children.add(c);
        return c;
    }

    /** A {@code jrnic perf --server} on {@code port} in host b, returned once it listens. */
    Child perfServer(String port, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("perf", "--server", "--port", port));
        args.addAll(List.of(more));
        Child s = jrnic('b', args.toArray(String[]::new));
        assertNotNull(s.await(l -> l.contains("jrnic perf server: RDMA on"), 60), s.output());
        return s;
    }

    /** A {@code jrnic soak --server} of {@code runs} runs on {@code port} in host b, returned once it is ready. */
    Child soakServer(int runs, int port, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("soak", "--server", "--runs",
                Integer.toString(runs), "--port", Integer.toString(port), "--bind", addr('b')));
        args.addAll(List.of(more));
        Child s = jrnic('b', args.toArray(String[]::new));
        assertNotNull(s.await(l -> l.startsWith(SoakServer.READY), 60), s.output());
        return s;
    }

    /** A {@code jrnic soak --connect} client in host a against b's {@code port} (a message every 1 s reported). */
    Child soakClient(int port, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("soak", "--connect", addr('b'), "--port",
                Integer.toString(port), "--interval", "1"));
        args.addAll(List.of(more));
        return jrnic('a', args.toArray(String[]::new));
    }

    @Override
    public void close() throws Exception {
        for (Child c : children) {
            c.process.destroyForcibly();
            c.process.waitFor(10, TimeUnit.SECONDS);
        }
        harness("down");
    }

    /** A child process whose output (standard output and error together) is collected line by line. */
    static final class Child {
        final Process process;
        final List<String> lines = new CopyOnWriteArrayList<>();

        Child(Process process) {
            this.process = process;
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    lines.add("(output lost: " + e + ")");
                }
            }, "twohost-output");
            t.setDaemon(true);
            t.start();
        }

        /** Waits (at most {@code seconds}) for a line matching {@code p}; the line, or null. */
        String await(Predicate<String> p, int seconds) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() - until < 0) {
                for (String l : lines) {
                    if (p.test(l)) {
                        return l;
                    }
                }
                if (!process.isAlive() && lines.stream().noneMatch(p)) {
                    Thread.sleep(100); // the reader may still be draining the last lines
                    return lines.stream().filter(p).findFirst().orElse(null);
                }
                Thread.sleep(50);
            }
            return null;
        }

        /** Waits (at most {@code seconds}) for the end; the exit code, or -1 if it was still running (then ended). */
        int exit(int seconds) throws InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                return -1;
            }
            return process.exitValue();
        }

        String output() {
            return String.join("\n", lines);
        }
    }
}
