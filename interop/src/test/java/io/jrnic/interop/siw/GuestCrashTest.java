package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A guest whose kernel dies is reported (with the console) instead of hanging the run, and the
 * extension boots a fresh one for the next test (as fuzzing siw will need).
 */
@SiwGuestTest(capture = "")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GuestCrashTest {
    @Test
    @Order(1)
    void kernelCrashIsReportedAsDeadGuestWithConsole(SiwGuest guest) {
        GuestFailureException e = assertThrows(GuestFailureException.class,
                () -> guest.exec("echo 1 > /proc/sys/kernel/sysrq; echo c > /proc/sysrq-trigger; sleep 30",
                        Duration.ofSeconds(40)));
        assertEquals(GuestFailureException.Kind.DEAD, e.kind());
        assertTrue(e.consoleTail().contains("Kernel panic"), e.consoleTail());
        assertFalse(guest.alive());
    }

    @Test
    @Order(2)
    void nextTestGetsAFreshGuest(SiwGuest guest) throws Exception {
        assertTrue(guest.alive());
        assertTrue(guest.execOk("rdma link show").output().contains("siw0"));
    }
}
