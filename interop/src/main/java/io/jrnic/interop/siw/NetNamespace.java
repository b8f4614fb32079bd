package io.jrnic.interop.siw;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network namespace {@code jrnic-siw-<pid>} holding the tap device QEMU attaches the guest's
 * eth0 to. All host-side traffic to the guest starts inside it ({@link #wrap}), so nothing leaves
 * the namespace the harness made.
 */
public final class NetNamespace implements AutoCloseable {
    /** Prefix of every namespace this harness creates; the suffix is the creating JVM's pid. */
    public static final String PREFIX = "jrnic-siw-";
    static final String TAP = "jrsiw0";
    private static final Duration IP_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern OURS = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)(?:-\\d+)?");

    private final String name;
    private boolean closed;

    private NetNamespace(String name) {
        this.name = name;
    }

    /** Creates the namespace with lo up and a tap {@value #TAP} carrying {@code hostCidr}. */
    public static NetNamespace create(String name, String hostCidr) throws IOException {
        Host.check(List.of("ip", "netns", "add", name), IP_TIMEOUT);
        NetNamespace ns = new NetNamespace(name);
        try {
            ns.ip("link", "set", "lo", "up");
            ns.ip("tuntap", "add", "dev", TAP, "mode", "tap");
            ns.ip("addr", "add", hostCidr, "dev", TAP);
            ns.ip("link", "set", TAP, "up");
            return ns;
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    private void ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", name));
        cmd.addAll(List.of(args));
        Host.check(cmd, IP_TIMEOUT);
    }

    /** {@code ip netns exec <name> cmd...}: the command runs with this namespace's network. */
    public List<String> wrap(List<String> cmd) {
        List<String> w = new ArrayList<>(List.of("ip", "netns", "exec", name));
        w.addAll(cmd);
        return w;
    }

    /** Deletes the tap and the namespace. Call after every process in it has exited. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Host.run(List.of("ip", "-n", name, "link", "del", TAP), IP_TIMEOUT);
            Host.run(List.of("ip", "netns", "del", name), IP_TIMEOUT);
        } catch (IOException e) {
            System.err.println("jrnic-siw: could not delete namespace " + name + ": " + e.getMessage());
        }
    }

    /**
     * Deletes namespaces left by harness JVMs that died without cleaning up (named
     * {@code jrnic-siw-<pid>} where that pid is gone), killing the QEMU left inside first.
     * Returns the names removed.
     */
    public static List<String> removeStale() throws IOException {
        List<String> removed = new ArrayList<>();
        ExecResult list = Host.run(List.of("ip", "netns", "list"), IP_TIMEOUT);
        for (String line : list.output().split("\n")) {
            String n = line.trim().split("\\s+")[0];
            Matcher m = OURS.matcher(n);
            if (!m.matches() || ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) {
                continue;
            }
            ExecResult pids = Host.run(List.of("ip", "netns", "pids", n), IP_TIMEOUT);
            for (String pid : pids.output().trim().split("\\s+")) {
                if (pid.matches("\\d+")) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            new NetNamespace(n).close();
            removed.add(n);
        }
        return removed;
    }
}
