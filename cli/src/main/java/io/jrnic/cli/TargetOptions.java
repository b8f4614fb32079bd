package io.jrnic.cli;

import io.jrnic.conform.Role;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The target of {@code jrnic conform} and {@code jrnic fuzz} and the hooks that restart and check it: a picocli mixin.
 * Initiator role: TARGET (HOST or HOST:PORT, else {@code -p}); responder role: {@code --serve PORT}.
 */
public final class TargetOptions {
    @Parameters(arity = "0..1", paramLabel = "TARGET", description = "the target's server, HOST or HOST:PORT (initiator role)")
    String target;
    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174", description = "target port when TARGET has none (default 7174, rping's)")
    int port;
    @Option(names = "--serve", paramLabel = "PORT", description = "responder role: listen on PORT for the target's clients")
    Integer serve;
    @Option(names = "--first-fpdu-delay-ms", paramLabel = "MS", defaultValue = "0",
            description = "initiator role: pause between the Reply and the first FPDU (Linux siw under QEMU: 300)")
    long firstFpduDelayMs;
    @Option(names = "--hook-before", paramLabel = "CMD", description = "shell command that brings a fresh target (restarts "
            + "it): conform before each case; fuzz before each replay of the culprit search and each minimisation try, "
            + "and after a finding (responder role: start its client in the background)")
    String hookBefore;
    @Option(names = "--hook-health", paramLabel = "CMD", description = "shell command after each case or execution; "
            + "non-zero exit: the target died (a dead process: CRASHED, a finding)")
    String hookHealth;

    Role role() {
        return serve != null ? Role.RESPONDER : Role.INITIATOR;
    }

    /** The responder role's port, 0 in the initiator role. */
    int servePort() {
        return serve == null ? 0 : serve;
    }

    /** False when neither TARGET nor --serve was given (the command prints {@link #USAGE} and exits 2). */
    boolean given() {
        return serve != null || target != null;
    }

    static final String USAGE = "TARGET (HOST or HOST:PORT) or --serve PORT";

    /** The initiator role's target address (TARGET, its port or {@code -p}); null in the responder role. */
    InetSocketAddress address() throws UnknownHostException {
        if (role() != Role.INITIATOR) {
            return null;
        }
        int colon = target.lastIndexOf(':');
        String host = colon > 0 ? target.substring(0, colon) : target;
        return new InetSocketAddress(InetAddress.getByName(host), colon > 0 ? Integer.parseInt(target.substring(colon + 1)) : port);
    }

    /** The hooks, with {@code hookAfter} (conform's; may be null). */
    ShellTarget hooks(String hookAfter) {
        return new ShellTarget(hookBefore, hookAfter, hookHealth, role().name());
    }
}
