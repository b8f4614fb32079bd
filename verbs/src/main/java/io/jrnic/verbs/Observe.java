package io.jrnic.verbs;

import io.jrnic.verbs.observe.JfrEvents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API's observation points, provider-neutral: one INFO line per connection event, Terminates at
 * WARN with the RFC rule of their code, and the JFR events of {@link JfrEvents}. Nothing here runs
 * per FPDU: only on connection, QP state and CQ overflow events.
 */
final class Observe {
    static final Logger LOG = LoggerFactory.getLogger("io.jrnic");

    private Observe() {
    }

    static void established(Connection c, ConnectionParams p) {
        LOG.info("connection established: {} <-> {}, MPA v{} crc={} markers={} ird={} ord={} p2p={} rtr={}",
                c.localAddress(), c.remoteAddress(), p.mpaRevision(), p.crc(), p.markers(), p.ird(), p.ord(),
                p.peerToPeer(), p.rtrTypes());
        JfrEvents.ConnectionEstablished e = new JfrEvents.ConnectionEstablished();
        if (e.shouldCommit()) {
            e.remote = String.valueOf(c.remoteAddress());
            e.mpaRevision = p.mpaRevision();
            e.crc = p.crc();
            e.markers = p.markers();
            e.ird = p.ird();
            e.ord = p.ord();
            e.peerToPeer = p.peerToPeer();
            e.rtr = p.rtrTypes().toString();
            e.commit();
        }
    }

    static void failed(Connection c, CmEventType type, Throwable cause) {
        LOG.info("connection to {} failed: {}{}", c.remoteAddress(), type, cause == null ? "" : " (" + cause + ")");
        JfrEvents.ConnectionFailed e = new JfrEvents.ConnectionFailed();
        if (e.shouldCommit()) {
            e.remote = String.valueOf(c.remoteAddress());
            e.eventType = type.name();
            e.cause = cause == null ? null : cause.toString();
            e.commit();
        }
    }

    static void disconnected(Connection c) {
        LOG.info("connection {} <-> {} disconnected", c.localAddress(), c.remoteAddress());
    }

    static void transition(QueuePair qp, QpState from, QpState to, QpTrigger trigger, TerminateInfo t) {
        if (t != null) {
            LOG.warn("QP {} Terminate {}: layer {} type 0x{} code 0x{} ({}); QP {} -> {}", qp.number(),
                    t.received() ? "received" : "sent", layerName(t.layer()), Integer.toHexString(t.errorType()),
                    Integer.toHexString(t.errorCode()), rule(t.layer()), from, to);
            JfrEvents.Terminate e = new JfrEvents.Terminate();
            if (e.shouldCommit()) {
                e.direction = t.received() ? "received" : "sent";
                e.layer = layerName(t.layer());
                e.errorType = t.errorType();
                e.errorCode = t.errorCode();
                e.qp = qp.number();
                e.commit();
            }
        }
        if (from != to) {
            JfrEvents.QpStateChange e = new JfrEvents.QpStateChange();
            if (e.shouldCommit()) {
                e.qp = qp.number();
                e.from = from.name();
                e.to = to.name();
                e.trigger = trigger.name();
                e.commit();
            }
        }
    }

    static void cqOverflow(int capacity) {
        LOG.warn("CQ overflow (capacity {}): a completion was lost; the CQ is overflowed (RDMAC verbs CQ overflow)",
                capacity);
        JfrEvents.CqOverflow e = new JfrEvents.CqOverflow();
        e.capacity = capacity;
        e.commit();
    }

    static String layerName(int layer) {
        String t = Stats.triple(layer, 0, 0);
        return t.substring(0, t.indexOf('/'));
    }

    /** Where the layer's Terminate error codes are defined. */
    private static String rule(int layer) {
        return switch (layer) {
            case TerminateInfo.LAYER_RDMAP -> "RFC 5040 section 7.2";
            case TerminateInfo.LAYER_DDP -> "RFC 5041 section 7.2";
            case TerminateInfo.LAYER_LLP -> "RFC 5044 section 8";
            default -> "RFC 6580";
        };
    }
}
