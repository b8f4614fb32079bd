package io.jrnic.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerClosesFirstTest {

    @Test
    void thisSideClosesOnlyOnceThePeerHas() throws Exception {
        CompletableFuture<Void> peer = new CompletableFuture<>();
        AtomicBoolean closed = new AtomicBoolean();
        List<String> notes = new ArrayList<>();
        AtomicBoolean first = new AtomicBoolean();
        Thread t = new Thread(() -> first.set(PeerClosesFirst.thenClose(peer, Duration.ofSeconds(50),
                () -> closed.set(true), notes::add)));
        t.start();
        while (t.getState() != Thread.State.TIMED_WAITING) {   // parked in the bounded wait for the peer
            Thread.onSpinWait();
        }
        assertFalse(closed.get(), "closed while the peer was still open");
        peer.complete(null);
        t.join();
        assertTrue(closed.get());
        assertTrue(first.get());
        assertEquals(List.of(), notes);
    }

    @Test
    void aPeerThatNeverClosesIsClosedAnywayWithAWarning() {
        AtomicBoolean closed = new AtomicBoolean();
        List<String> notes = new ArrayList<>();
        assertFalse(PeerClosesFirst.thenClose(new CompletableFuture<Void>(), Duration.ZERO, () -> closed.set(true),
                notes::add));
        assertTrue(closed.get());
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).contains("did not disconnect within 0 ms"), notes.get(0));
    }

    @Test
    void aConnectionThatEndedOtherwiseIsNotWaitedFor() {
        AtomicBoolean closed = new AtomicBoolean();
        List<String> notes = new ArrayList<>();
        assertTrue(PeerClosesFirst.thenClose(CompletableFuture.failedFuture(new IllegalStateException("reset")),
                Duration.ofSeconds(50), () -> closed.set(true), notes::add));
        assertTrue(closed.get());
        assertEquals(List.of(), notes);
    }
}
