package io.jrnic.verbs;

import static io.jrnic.verbs.QpState.*;
import static io.jrnic.verbs.QpTrigger.*;
import static org.junit.jupiter.api.Assertions.*;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QpStateMachineTest {

    /** The expected table, written out independently of the implementation's loops. */
    private static final Map<String, QpState> LEGAL = new HashMap<>();

    static {
        legal(IDLE, CONNECTED, RTS);
        legal(IDLE, MODIFY_TO_ERROR, ERROR);
        legal(RTS, CLOSE_STARTED, CLOSING);
        legal(RTS, TERMINATE_SENT, TERMINATE);
        legal(RTS, TERMINATE_RECEIVED, ERROR);
        legal(RTS, LLP_ERROR, ERROR);
        legal(RTS, MODIFY_TO_ERROR, ERROR);
        legal(CLOSING, CLOSE_COMPLETED, IDLE);
        legal(CLOSING, TERMINATE_SENT, TERMINATE);
        legal(CLOSING, TERMINATE_RECEIVED, ERROR);
        legal(CLOSING, LLP_ERROR, ERROR);
        legal(CLOSING, MODIFY_TO_ERROR, ERROR);
        legal(TERMINATE, TERMINATE_DONE, ERROR);
        legal(TERMINATE, TERMINATE_RECEIVED, ERROR);
        legal(TERMINATE, LLP_ERROR, ERROR);
        legal(TERMINATE, MODIFY_TO_ERROR, ERROR);
        legal(ERROR, MODIFY_TO_ERROR, ERROR);
        legal(ERROR, RESET_TO_IDLE, IDLE);
    }

    private static void legal(QpState from, QpTrigger t, QpState to) {
        LEGAL.put(from + "/" + t, to);
    }

    @Test
    void everyLegalTransitionLeadsToTheSpecifiedState() {
        for (Map.Entry<String, QpState> e : LEGAL.entrySet()) {
            String[] k = e.getKey().split("/");
            QpState from = QpState.valueOf(k[0]);
            QpTrigger t = QpTrigger.valueOf(k[1]);
            assertTrue(QpStateMachine.isLegal(from, t), e.getKey());
            assertEquals(e.getValue(), QpStateMachine.next(from, t), e.getKey());
        }
    }

    @Test
    void everyOtherTransitionIsRejectedWithStateAndTrigger() {
        int illegal = 0;
        for (QpState from : QpState.values()) {
            for (QpTrigger t : QpTrigger.values()) {
                if (LEGAL.containsKey(from + "/" + t)) {
                    continue;
                }
                illegal++;
                assertFalse(QpStateMachine.isLegal(from, t));
                assertNull(QpStateMachine.target(from, t));
                IllegalQpTransitionException ex = assertThrows(IllegalQpTransitionException.class,
                        () -> QpStateMachine.next(from, t));
                assertEquals(from, ex.from());
                assertEquals(t, ex.trigger());
            }
        }
        assertEquals(QpState.values().length * QpTrigger.values().length - LEGAL.size(), illegal);
    }

    @Test
    void postingRulesSendOnlyInRtsReceiveInIdleOrRts() {
        for (QpState s : QpState.values()) {
            assertEquals(s == RTS, QpStateMachine.canPostSend(s), s.name());
            assertEquals(s == RTS || s == IDLE, QpStateMachine.canPostRecv(s), s.name());
        }
    }
}
