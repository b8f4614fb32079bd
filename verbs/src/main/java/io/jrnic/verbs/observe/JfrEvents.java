package io.jrnic.verbs.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * jrnic's JFR events (category "jrnic"), visible in any recording ({@code jcmd PID JFR.start}) and
 * readable with {@code jdk.jfr.consumer}. None is emitted per FPDU: all mark connection, QP or
 * error events, and backpressure stalls (one per stall).
 */
public final class JfrEvents {
    private JfrEvents() {
    }

    @Name("io.jrnic.ConnectionEstablished")
    @Label("RDMA Connection Established")
    @Category("jrnic")
    @Description("An MPA connection reached the data phase, with the negotiated MPA parameters")
    public static final class ConnectionEstablished extends Event {
        @Label("Remote") public String remote;
        @Label("MPA revision") public int mpaRevision;
        @Label("CRC") public boolean crc;
        @Label("Markers") public boolean markers;
        @Label("IRD") public int ird;
        @Label("ORD") public int ord;
        @Label("Peer-to-peer") public boolean peerToPeer;
        @Label("RTR") public String rtr;
    }

    @Name("io.jrnic.ConnectionFailed")
    @Label("RDMA Connection Failed")
    @Category("jrnic")
    public static final class ConnectionFailed extends Event {
        @Label("Remote") public String remote;
        @Label("Event") public String eventType;
        @Label("Cause") public String cause;
    }

    @Name("io.jrnic.Terminate")
    @Label("iWARP Terminate")
    @Category("jrnic")
    @Description("A Terminate sent or received (RFC 5040 section 4.8), with its (layer, type, code) triple")
    public static final class Terminate extends Event {
        @Label("Direction") public String direction;
        @Label("Layer") public String layer;
        @Label("Error type") public int errorType;
        @Label("Error code") public int errorCode;
        @Label("QP") public int qp;
    }

    @Name("io.jrnic.QpStateChange")
    @Label("QP State Change")
    @Category("jrnic")
    public static final class QpStateChange extends Event {
        @Label("QP") public int qp;
        @Label("From") public String from;
        @Label("To") public String to;
        @Label("Trigger") public String trigger;
    }

    @Name("io.jrnic.CqOverflow")
    @Label("CQ Overflow")
    @Category("jrnic")
    public static final class CqOverflow extends Event {
        @Label("Capacity") public int capacity;
    }

    @Name("io.jrnic.BackpressureStall")
    @Label("Transmit Backpressure Stall")
    @Category("jrnic")
    @Description("The transmitter waited for the channel's write buffer to fall below the low water mark")
    public static final class BackpressureStall extends Event {
        @Label("Waited") @Timespan(Timespan.NANOSECONDS) public long waitedNanos;
    }
}
