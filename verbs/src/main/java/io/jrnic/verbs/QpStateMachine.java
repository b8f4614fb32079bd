package io.jrnic.verbs;

import java.util.EnumMap;
import java.util.Map;

/**
 * The iWARP QP transition table (RDMAC verbs section 6.2, as Linux siw implements it; RFC 5040
 * section 6 for the Terminate and stream-close rules). Provider-neutral: every provider drives its
 * QPs through this table (via {@link io.jrnic.verbs.spi.QpUpcalls#transition}), never around it.
 *
 * <table>
 * <caption>legal transitions (anything else throws IllegalQpTransitionException)</caption>
 * <tr><th>from</th><th>trigger</th><th>to</th></tr>
 * <tr><td>IDLE</td><td>CONNECTED</td><td>RTS</td></tr>
 * <tr><td>IDLE</td><td>MODIFY_TO_ERROR</td><td>ERROR</td></tr>
 * <tr><td>RTS</td><td>CLOSE_STARTED</td><td>CLOSING</td></tr>
 * <tr><td>RTS, CLOSING</td><td>TERMINATE_SENT</td><td>TERMINATE</td></tr>
 * <tr><td>RTS, CLOSING, TERMINATE</td><td>TERMINATE_RECEIVED, LLP_ERROR, MODIFY_TO_ERROR</td><td>ERROR</td></tr>
 * <tr><td>CLOSING</td><td>CLOSE_COMPLETED</td><td>IDLE</td></tr>
 * <tr><td>TERMINATE</td><td>TERMINATE_DONE</td><td>ERROR</td></tr>
 * <tr><td>ERROR</td><td>MODIFY_TO_ERROR</td><td>ERROR (idempotent)</td></tr>
 * <tr><td>ERROR</td><td>RESET_TO_IDLE</td><td>IDLE (the API also requires both queues empty)</td></tr>
 * </table>
 * CLOSING -> IDLE is the clean end of an orderly close (siw does the same); a close that finds work
 * outstanding is an LLP_ERROR and goes to ERROR, flushing that work. There is no way back to RTS
 * from anything but IDLE, and IDLE -> RTS only through a connection (the connection manager).
 */
public final class QpStateMachine {
    private static final Map<QpState, Map<QpTrigger, QpState>> TABLE = new EnumMap<>(QpState.class);

    static {
        for (QpState s : QpState.values()) {
            TABLE.put(s, new EnumMap<>(QpTrigger.class));
        }
        put(QpState.IDLE, QpTrigger.CONNECTED, QpState.RTS);
        put(QpState.IDLE, QpTrigger.MODIFY_TO_ERROR, QpState.ERROR);
        put(QpState.RTS, QpTrigger.CLOSE_STARTED, QpState.CLOSING);
        for (QpState s : new QpState[] {QpState.RTS, QpState.CLOSING}) {
            put(s, QpTrigger.TERMINATE_SENT, QpState.TERMINATE);
        }
        for (QpState s : new QpState[] {QpState.RTS, QpState.CLOSING, QpState.TERMINATE}) {
            put(s, QpTrigger.TERMINATE_RECEIVED, QpState.ERROR);
            put(s, QpTrigger.LLP_ERROR, QpState.ERROR);
            put(s, QpTrigger.MODIFY_TO_ERROR, QpState.ERROR);
        }
        put(QpState.CLOSING, QpTrigger.CLOSE_COMPLETED, QpState.IDLE);
        put(QpState.TERMINATE, QpTrigger.TERMINATE_DONE, QpState.ERROR);
        put(QpState.ERROR, QpTrigger.MODIFY_TO_ERROR, QpState.ERROR);
        put(QpState.ERROR, QpTrigger.RESET_TO_IDLE, QpState.IDLE);
    }

    private static void put(QpState from, QpTrigger t, QpState to) {
        TABLE.get(from).put(t, to);
    }

    private QpStateMachine() {
    }

    /** The state {@code trigger} leads to from {@code from}, or null when illegal. */
    public static QpState target(QpState from, QpTrigger trigger) {
        return TABLE.get(from).get(trigger);
    }

    /** True when legal. */
    public static boolean isLegal(QpState from, QpTrigger trigger) {
        return target(from, trigger) != null;
    }

    /** The next state. @throws IllegalQpTransitionException when illegal */
    public static QpState next(QpState from, QpTrigger trigger) {
        QpState to = target(from, trigger);
        if (to == null) {
            throw new IllegalQpTransitionException(from, trigger);
        }
        return to;
    }

    /** True when a send may be posted in {@code s} (RTS only). */
    public static boolean canPostSend(QpState s) {
        return s == QpState.RTS;
    }

    /** True when a receive may be posted in {@code s} (IDLE, RTS). */
    public static boolean canPostRecv(QpState s) {
        return s == QpState.IDLE || s == QpState.RTS;
    }
}
