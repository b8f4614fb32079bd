package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.jrnic.verbs.QpState;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * The connection manager reports a disconnect only after the QP processed its stream's end (spec-notes/engine.md,
 * "Close"): a consumer that waits for {@code disconnected()} finds its QP out of RTS (IDLE after an orderly close,
 * ERROR after a loss), so it can reset and reconnect it at once. Repeated: the order used to depend on which of two
 * tasks of the event loop ran first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DisconnectOrderTest {
    @RepeatedTest(5)
    void whenTheDisconnectIsReportedBothQpsHaveLeftRts() throws Exception {
        try (SoftPair p = new SoftPair()) {
            io.jrnic.verbs.Connection b = p.connB();
            p.connA.disconnect();
            p.connA.disconnected().get(10, TimeUnit.SECONDS);
            assertNotEquals(QpState.RTS, p.a.qp.state(), "A's disconnect reported while its QP was in RTS");
            b.disconnected().get(10, TimeUnit.SECONDS);
            assertNotEquals(QpState.RTS, p.b.qp.state(), "B's disconnect reported while its QP was in RTS");
        }
    }
}
