package io.jrnic.cli;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Target;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrnic conform}'s hooks as shell commands ({@code sh -c}), each with {@code JRNIC_CASE} (the
 * case id) and {@code JRNIC_ROLE} in its environment and at most {@link #HOOK_SECONDS} s to finish. A
 * before hook that starts a client must put it in the background ({@code rping -c ... &}).
 */
final class ShellTarget implements Target {
    static final long HOOK_SECONDS = 120;

    private final String before;
    private final String after;
    private final String health;
    private final String crashed;
    private final String role;

    ShellTarget(String before, String after, String health, String role) {
        this(before, after, health, null, role);
    }

    ShellTarget(String before, String after, String health, String crashed, String role) {
        this.before = before;
        this.after = after;
        this.health = health;
        this.crashed = crashed;
        this.role = role;
    }

    @Override
    public void before(ConformCase c) throws Exception {
        if (before != null) {
            int rc = run(before, c == null ? "fuzz" : c.id()).exit;
            if (rc != 0) {
                throw new IOException("--hook-before exited " + rc);
            }
        }
    }

    @Override
    public void after(ConformCase c) throws Exception {
        if (after != null) {
            run(after, c == null ? "fuzz" : c.id());
        }
    }

    @Override
    public String health() throws Exception {
        if (health == null) {
            return null;
        }
        Result r = run(health, "");
        return r.exit == 0 ? null : "--hook-health exited " + r.exit + (r.output.isBlank() ? "" : ": " + r.output.strip());
    }

    /** {@code --hook-crashed}: exit 0 is a crash, its output (first line) the evidence. */
    @Override
    public String crashed() throws Exception {
        if (crashed == null) {
            return null;
        }
        Result r = run(crashed, "");
        if (r.exit != 0) {
            return null;
        }
        String first = r.output.strip().lines().findFirst().orElse("");
        return "--hook-crashed" + (first.isEmpty() ? " exited 0" : ": " + first);
    }

    private record Result(int exit, String output) {
    }

    private Result run(String cmd, String caseId) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true);
        pb.environment().put("JRNIC_CASE", caseId);
        pb.environment().put("JRNIC_ROLE", role);
        Process p = pb.start();
        p.getOutputStream().close();
        InputStream in = p.getInputStream();
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                byte[] b = in.readAllBytes();
                synchronized (out) {
                    out.append(new String(b, 0, Math.min(b.length, 4096), StandardCharsets.UTF_8));
                }
            } catch (IOException ignored) {
                // the hook's output is advisory
            }
        });
        reader.setDaemon(true);
        reader.start();
        if (!p.waitFor(HOOK_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("hook did not finish within " + HOOK_SECONDS + " s: " + cmd);
        }
        reader.join(1000);
        synchronized (out) {
            return new Result(p.exitValue(), out.toString());
        }
    }
}
