package io.jrnic.cli.tools;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The perftest tools' teardown order, so that no FIN of jrnic's reaches a peer whose last transmit call may still
 * be running:
 * <ol>
 * <li>The client, once its last completion is in, disconnects the connection that was idle in the last phase (the
 * test connection after the closing dest exchange; the exchange connection after ib_write_lat's last Write).</li>
 * <li>The server waits for that disconnect, which tells it the client's transmit calls have returned, then
 * disconnects both.</li>
 * <li>The client disconnects the other connection once the server has (the server's calls have returned too).</li>
 * </ol>
 * Each wait is bounded ({@link #DEFAULT_BOUND}); a peer that never disconnects is disconnected anyway, with a
 * warning. Why: Linux siw (6.1) completes a Send in error
 * (IBV_WC_LOC_QP_OP_ERR) when the peer's FIN reaches it while the call that pushed the Send's last segment into
 * TCP has not yet returned: its peer-close callback sets {@code tx_suspend}, and the transmit loop checks that
 * flag after every fully pushed segment, the last one included. A slow guest (QEMU TCG on a loaded host) stalls
 * inside that call long enough for jrnic to receive the Send, answer it and disconnect; CI saw ib_read_lat's
 * client fail so with the whole exchange on the wire. Waiting for the peer's own disconnect, which follows its
 * completion, closes that window. See interop/README.md ("siw and an early FIN").
 */
final class PeerClosesFirst {
    /** How long a side waits for the peer's disconnect before it disconnects anyway. */
    static final Duration DEFAULT_BOUND = Duration.ofSeconds(2);

    private PeerClosesFirst() {
    }

    /**
     * Waits at most {@code bound} for {@code peerClosed}, then runs {@code closeMine}. Returns whether the peer
     * closed first; when it did not, {@code note} hears why this side closes anyway.
     */
    static boolean thenClose(CompletableFuture<?> peerClosed, Duration bound, Runnable closeMine,
                             Consumer<String> note) {
        boolean first;
        try {
            peerClosed.get(bound.toNanos(), TimeUnit.NANOSECONDS);
            first = true;
        } catch (TimeoutException e) {
            note.accept("the peer did not disconnect within " + bound.toMillis() + " ms of the closing exchange:"
                    + " disconnecting");
            first = false;
        } catch (ExecutionException e) {
            first = true;   // the connection ended some other way: nothing of the peer's to wait for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            first = false;
        }
        closeMine.run();
        return first;
    }
}
