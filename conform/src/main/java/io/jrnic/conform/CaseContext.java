package io.jrnic.conform;

import io.jrnic.conform.wire.Recording;
import io.jrnic.conform.wire.Session;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

/** What a case's script gets: the target, the run's settings, and the case's recording. */
public final class CaseContext {
    /** The target could not be reached (initiator role) or never connected (responder role). */
    public static final class UnreachableException extends IOException {
        public UnreachableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final ConformOptions options;
    private final Recording recording;
    private final ServerSocket listener;

    public CaseContext(ConformOptions options, Recording recording, ServerSocket listener) {
        this.options = options;
        this.recording = recording;
        this.listener = listener;
    }

    /**
     * Connects to the target's server (initiator role). A refused connection is retried for up to
     * the connect wait: a target restarted between cases (a hook, a loop) may not listen yet.
     */
    public Session connect() throws IOException {
        long deadline = System.nanoTime() + options.connectWait().toNanos();
        while (true) {
            try {
                return Session.connect(options.target(), options.timeout(), recording);
            } catch (java.net.ConnectException e) {
                if (System.nanoTime() > deadline) {
                    throw new UnreachableException("connect to " + options.target() + ": " + e.getMessage(), e);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new UnreachableException("interrupted", ie);
                }
            } catch (IOException e) {
                throw new UnreachableException("connect to " + options.target() + ": " + e.getMessage(), e);
            }
        }
    }

    /** Accepts the target's client (responder role). */
    public Session accept() throws IOException {
        try {
            return Session.accept(listener, options.connectWait(), recording);
        } catch (IOException e) {
            throw new UnreachableException("no connection from the target within "
                    + options.connectWait().toSeconds() + " s: " + e.getMessage(), e);
        }
    }

    /** Whether the run asks for MPA CRC ({@code --crc}). */
    public boolean crc() {
        return options.crc();
    }

    /** How long to wait for each reaction of the target. */
    public Duration timeout() {
        return options.timeout();
    }

    /** How long to wait for the target to give up on a stalled peer (its MPA or idle timeout). */
    public Duration stallTimeout() {
        return options.stallTimeout();
    }

    /** The pause between the Reply and our first FPDU (initiator role). */
    public Duration firstFpduDelay() {
        return options.firstFpduDelay();
    }

    public InetSocketAddress target() {
        return options.target();
    }
}
