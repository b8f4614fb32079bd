package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One Linux guest running siw under QEMU (TCG), on a tap inside a network namespace of its own.
 * Boot with {@link #boot}; run shell commands in the guest with {@link #exec}; run host programs
 * that talk to the guest with {@link #hostCommand} (they must run inside {@link #namespace()});
 * copy files out with {@link #copyOut}. {@link #close} kills QEMU and every host process started
 * through this object, then deletes the namespace; a shutdown hook does the same if the JVM exits
 * first, and no guest is booted once it has begun ({@link ShutdownSet}). A panicked, exited or silent
 * guest surfaces as {@link GuestFailureException} with the console tail, never as a hang.
 */
public final class SiwGuest implements AutoCloseable {
    /** Printed by the guest's /init once siw0 exists and the control loop runs. */
    public static final String READY = "siw ready";
    /** Extra time the host gives the guest beyond a command's own timeout before calling it hung. */
    public static final Duration GRACE = Duration.ofSeconds(20);
    private static final AtomicInteger SEQ = new AtomicInteger();

    private final GuestConfig config;
    private final NetNamespace ns;
    private final Path workDir;
    private final GuestConsole console;
    private final SiwImage image;
    private Process qemu;
    private final List<Process> hostProcesses = new ArrayList<>();
    private final AtomicInteger transfers = new AtomicInteger();
    /** The control channel and failure watch of the current boot (null before the first is ready). */
    private volatile GuestLink link;
    private volatile boolean closed;
    private Duration bootTime;

    private SiwGuest(SiwImage image, GuestConfig config, NetNamespace ns, Path workDir, Process qemu) {
        this.image = image;
        this.config = config;
        this.ns = ns;
        this.workDir = workDir;
        this.console = new GuestConsole(workDir.resolve("console.log"));
        this.qemu = qemu;
    }

    /** Boots {@code image} with {@code config}; returns once the guest printed {@value #READY} and answers. */
    public static SiwGuest boot(SiwImage image, GuestConfig config) throws IOException {
        long t0 = System.nanoTime();
        NetNamespace.removeStale();
        long pid = ProcessHandle.current().pid();
        int seq = SEQ.getAndIncrement();
        String nsName = NetNamespace.PREFIX + pid + (seq == 0 ? "" : "-" + seq);
        // Short path: unix socket names are limited to 107 bytes.
        Path work = Files.createTempDirectory(Paths.get("/tmp"), "jrnic-siw-");
        Files.createDirectories(work.resolve("share"));
        SiwGuest g;
        try {
            g = ShutdownSet.GUESTS.admit(() -> {   // started under the shutdown hook's lock (ShutdownSet)
                NetNamespace ns = NetNamespace.create(nsName, config.hostCidr());
                try {
                    return new SiwGuest(image, config, ns, work, startQemu(image, config, ns, work));
                } catch (IOException e) {
                    ns.close();
                    throw e;
                }
            });
        } catch (IOException e) {
            deleteTree(work);
            throw e;
        }
        try {
            g.awaitReady(t0);
            g.bootTime = Duration.ofNanos(System.nanoTime() - t0);
            return g;
        } catch (IOException | RuntimeException e) {
            g.close();
            throw e;
        }
    }

    private static Process startQemu(SiwImage image, GuestConfig config, NetNamespace ns, Path work) throws IOException {
        Path qemuBin = SiwImage.qemu().orElseThrow(() -> new IOException("qemu-system-x86_64 not found"));
        List<String> cmd = List.of(qemuBin.toString(), "-accel", "tcg", "-m", String.valueOf(config.memoryMb()),
                "-smp", "1", "-nographic", "-no-reboot", "-monitor", "none",
                "-kernel", image.bootKernel().toString(), "-initrd", image.initramfs().toString(),
                "-append", config.kernelCommandLine(),
                "-netdev", "tap,id=n0,ifname=" + NetNamespace.TAP + ",script=no,downscript=no",
                "-device", "virtio-net-pci,netdev=n0,mac=52:54:00:6a:72:01,romfile=",
                "-device", "virtio-serial-pci",
                "-chardev", "socket,id=ctl,path=" + work.resolve("ctl.sock") + ",server=on,wait=off",
                "-device", "virtserialport,chardev=ctl,name=jrnic.ctl",
                "-fsdev", "local,id=fs0,path=" + work.resolve("share") + ",security_model=none",
                "-device", "virtio-9p-pci,fsdev=fs0,mount_tag=jrnic");
        return new ProcessBuilder(ns.wrap(cmd)).redirectErrorStream(true)
                .redirectOutput(work.resolve("console.log").toFile()).start();
    }

    /**
     * A fresh guest in place: QEMU killed and started anew in the same namespace (same tap, addresses and
     * console file, truncated), so host processes already running in the namespace (a fuzzer) reach the new
     * guest. Guest-side background commands are gone with the old kernel.
     */
    public synchronized void reboot() throws IOException {
        if (closed) {
            throw new IOException("guest closed (the JVM may be exiting): no reboot");
        }
        long t0 = System.nanoTime();
        closeLink();
        Host.kill(qemu.toHandle());
        try {
            qemu.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        Files.deleteIfExists(workDir.resolve("ctl.sock"));
        qemu = startQemu(image, config, ns, workDir);
        awaitReady(t0);
        bootTime = Duration.ofNanos(System.nanoTime() - t0);
    }

    /** The serial console's log file (the kernel's messages, an oops among them); {@link #reboot} truncates it. */
    public Path consoleLog() {
        return console.file();
    }

    private void awaitReady(long t0) throws IOException {
        link = new GuestLink(qemu, console, workDir.resolve("ctl.sock"));
        link.awaitReady(t0, config.bootTimeout());
    }

    /**
     * Runs {@code script} with sh in the guest, stdout and stderr together. The guest kills it
     * after {@code timeout} (exit {@link ExecResult#KILLED}).
     *
     * @throws GuestFailureException if the guest died or stayed silent past {@code timeout + GRACE}
     */
    public ExecResult exec(String script, Duration timeout) throws IOException {
        if (closed) {
            throw new IllegalStateException("guest closed");
        }
        return link.exec(script, timeout);
    }

    /** {@link #exec} with a 60 s timeout, throwing when the exit status is not 0. */
    public ExecResult execOk(String script) throws IOException {
        return exec(script, Duration.ofSeconds(60)).orThrow();
    }

    /** True while QEMU runs, the kernel has not panicked and no command went unanswered. */
    public boolean alive() {
        GuestLink l = link;
        return !closed && l != null && l.alive();
    }

    // ---- background commands in the guest ----------------------------------------------

    /**
     * Starts {@code script} in the guest in its own session (process group) and returns at once.
     * Output goes to /tmp/bg/NAME.log; see {@link #waitBackground} and {@link #stopBackground}.
     */
    public void startBackground(String name, String script) throws IOException {
        requireName(name);
        String bg = "/tmp/bg/" + name;
        execOk("mkdir -p /tmp/bg && rm -f " + bg + ".rc && cat > " + bg + ".sh <<'JRNIC_EOF'\n" + script
                + "\nJRNIC_EOF\nsetsid sh -c 'sh " + bg + ".sh; echo $? > " + bg + ".rc.tmp; mv " + bg + ".rc.tmp "
                + bg + ".rc' > " + bg + ".log 2>&1 < /dev/null &\necho $! > " + bg + ".pid");
    }

    /**
     * Waits up to {@code timeout} for background command {@code name} to end. The result's exit
     * code is the command's, or -1 if it still runs; its output is the command's log so far.
     */
    public ExecResult waitBackground(String name, Duration timeout) throws IOException {
        requireName(name);
        String bg = "/tmp/bg/" + name;
        long tenths = Math.max(1, timeout.toMillis() / 100);
        ExecResult r = exec("i=0; while [ ! -e " + bg + ".rc ] && [ $i -lt " + tenths + " ]; do sleep 0.1; i=$((i+1));"
                + " done; cat " + bg + ".log; [ -e " + bg + ".rc ] && exit $(cat " + bg + ".rc); exit 255",
                timeout.plusSeconds(10));
        boolean done = exec("[ -e " + bg + ".rc ]", Duration.ofSeconds(10)).ok();
        return new ExecResult(name, done ? r.exitCode() : -1, r.output(), r.elapsed());
    }

    /** Sends {@code signal} to the background command's process group, then waits up to 10 s for it. */
    public ExecResult stopBackground(String name, String signal) throws IOException {
        requireName(name);
        String bg = "/tmp/bg/" + name;
        exec("[ -e " + bg + ".rc ] || kill -" + signal + " -$(cat " + bg + ".pid) 2>/dev/null; true",
                Duration.ofSeconds(10));
        ExecResult r = waitBackground(name, Duration.ofSeconds(10));
        if (r.exitCode() == -1) {
            exec("kill -KILL -$(cat " + bg + ".pid) 2>/dev/null; true", Duration.ofSeconds(10));
            r = waitBackground(name, Duration.ofSeconds(5));
        }
        return r;
    }

    private static void requireName(String name) {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("background/capture names are [A-Za-z0-9._-]+: " + name);
        }
    }

    // ---- files ---------------------------------------------------------------------------

    /**
     * Copies {@code guestPath} to {@code dest} on the host: through the 9p share when mounted,
     * else through the control channel (base64).
     */
    public Path copyOut(String guestPath, Path dest) throws IOException {
        String name = "xfer-" + transfers.incrementAndGet();
        Path parent = dest.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ExecResult viaShare = exec("mountpoint -q /mnt/host && cp " + quote(guestPath) + " /mnt/host/" + name
                + " && sync", Duration.ofSeconds(60));
        Path shared = workDir.resolve("share").resolve(name);
        if (viaShare.ok() && Files.isRegularFile(shared)) {
            Files.move(shared, dest, StandardCopyOption.REPLACE_EXISTING);
            return dest;
        }
        ExecResult b64 = exec("base64 " + quote(guestPath), Duration.ofSeconds(120)).orThrow();
        Files.write(dest, Base64.getMimeDecoder().decode(b64.output().trim()));
        return dest;
    }

    /** A single-quoted sh word. */
    public static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    // ---- host side ----------------------------------------------------------------------

    /** The namespace holding the tap: host programs talking to the guest must run in it. */
    public String namespace() {
        return ns.name();
    }

    /** {@code cmd} prefixed with {@code ip netns exec <namespace>}. */
    public List<String> hostCommand(List<String> cmd) {
        return ns.wrap(cmd);
    }

    /**
     * The command line of a child JVM running {@code mainClass} with this JVM's java and class
     * path; give it to {@link #runHost} or {@link #startHost} to run it inside the namespace. This is
     * how Java code (a jrnic client or server) reaches the guest.
     */
    public static List<String> javaCommand(String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        return cmd;
    }

    /** Runs a host command inside the namespace to completion (killed at {@code timeout}). */
    public ExecResult runHost(List<String> cmd, Duration timeout) throws IOException {
        return Host.run(hostCommand(cmd), timeout);
    }

    /**
     * Starts a host command inside the namespace (output to {@code log}); it is killed by
     * {@link #close} if still running.
     */
    public synchronized Process startHost(List<String> cmd, Path log) throws IOException {
        Process p = new ProcessBuilder(hostCommand(cmd)).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        hostProcesses.add(p);
        return p;
    }

    // ---- facts -------------------------------------------------------------------------------

    public GuestConfig config() {
        return config;
    }

    public String guestAddress() {
        return config.guestAddress();
    }

    public String hostAddress() {
        return config.hostAddress();
    }

    /** Wall time from {@link #boot} to the answered control probe. */
    public Duration bootTime() {
        return bootTime;
    }

    /** The whole console log (serial port) so far. */
    public String consoleText() {
        return console.text();
    }

    /** The last {@code lines} lines of the console. */
    public String consoleTail(int lines) {
        return console.tail(lines);
    }

    /** Kills QEMU and host processes started here, deletes the namespace and the work directory. */
    @Override
    public void close() {
        ShutdownSet.GUESTS.forget(this);
        closeQuietly();
    }

    /** The shutdown hook's close ({@link ShutdownSet}). */
    void closeForShutdown() {
        closeQuietly();
    }

    private synchronized void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        closeLink();
        for (Process p : hostProcesses) {
            Host.kill(p.toHandle());
        }
        Host.kill(qemu.toHandle());
        try {
            qemu.waitFor(10, TimeUnit.SECONDS);
            for (Process p : hostProcesses) {
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ns.close();
        deleteTree(workDir);
    }

    private void closeLink() {
        GuestLink l = link;
        if (l != null) {
            l.close();
        }
    }

    private static void deleteTree(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory
        }
    }
}
