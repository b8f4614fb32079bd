package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ShutdownSetTest {

    @Test
    void shutdownClosesWhatIsLiveAndNotWhatItsOwnerClosed() throws IOException {
        List<String> closed = new ArrayList<>();
        ShutdownSet<String> set = new ShutdownSet<>(closed::add);
        set.admit(() -> "guest-1");
        set.admit(() -> "guest-2");
        set.admit(() -> "guest-3");
        set.forget("guest-2");
        set.shutDown();
        assertEquals(List.of("guest-1", "guest-3"), closed);
    }

    @Test
    void nothingIsStartedOnceShutdownHasBegun() {
        ShutdownSet<String> set = new ShutdownSet<>(s -> { });
        set.shutDown();
        AtomicBoolean started = new AtomicBoolean();
        IOException e = assertThrows(IOException.class, () -> set.admit(() -> {
            started.set(true);
            return "guest";
        }));
        assertFalse(started.get(), "a start after the hook ran would leak its QEMU");
        assertEquals("the JVM is exiting: no guest is started", e.getMessage());
    }

    @Test
    void aStartThatFailsLeavesNothingForTheHook() {
        List<String> closed = new ArrayList<>();
        ShutdownSet<String> set = new ShutdownSet<>(closed::add);
        assertThrows(IOException.class, () -> set.admit(() -> {
            throw new IOException("qemu-system-x86_64 not found");
        }));
        set.shutDown();
        assertEquals(List.of(), closed);
    }

    @Test
    void oneCloseThatThrowsDoesNotSpareTheRest() throws IOException {
        List<String> closed = new ArrayList<>();
        ShutdownSet<String> set = new ShutdownSet<>(s -> {
            if (s.equals("bad")) {
                throw new IllegalStateException("kill failed");
            }
            closed.add(s);
        });
        set.admit(() -> "bad");
        set.admit(() -> "good");
        set.shutDown();
        assertEquals(List.of("good"), closed);
    }
}
