package io.jrnic.verbs;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Immutable connection options (MPA set-up, RFC 5044 section 7 / RFC 6581). Every "setter" returns
 * a new instance. {@link #defaults()} interoperates with Linux siw out of the box:
 * <ul>
 * <li>MPA revision 2 with enhanced mode (H) and the IRD/ORD words, the only mode siw handles well.</li>
 * <li>CRC not requested (C = 0), as siw; but MPA makes CRC "negotiable": if the peer sets C, both
 *     sides use CRCs, and providers must accept that. {@code crc(true)} requests it.</li>
 * <li>No markers (siw rejects M).</li>
 * <li>IRD = ORD = 16: below siw's 128 limit, enough for common pipelines.</li>
 * <li>Peer-to-peer RTR off; when enabled, WRITE and READ offered (siw picks WRITE, cannot do SEND).</li>
 * <li>Private-data cap 256 bytes on the wire (siw closes on more, and crashes as initiator on a
 *     larger Reply): 252 for the application with revision 2.</li>
 * <li>MULPDU 0 = derive from the path MSS (one FPDU per TCP segment, like siw).</li>
 * <li>Timeouts: TCP connect 5 s, MPA Reply 10 s (initiator), MPA Request 5 s (responder): siw's values.</li>
 * <li>firstFpduDelay 0: an initiator-side pause between the MPA Reply and the first FPDU, for siw's
 *     responder race (siw-notes "Responder race"); set it (e.g. 50 ms) when talking to siw over a slow link.</li>
 * </ul>
 */
public final class ConnectOptions {
    /** RFC 5044 section 7.1 limit on private data. */
    public static final int MPA_MAX_PRIVATE_DATA = 512;
    /** Largest IRD/ORD value an MPA v2 word carries (14 bits). */
    public static final int MAX_IRD_ORD = 0x3FFF;

    private static final ConnectOptions DEFAULTS = new ConnectOptions(2, false, false, 16, 16, false,
            EnumSet.of(RtrType.WRITE, RtrType.READ), new byte[0], 256, 0, Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ZERO);

    private final int mpaRevision;
    private final boolean crc;
    private final boolean markers;
    private final int ird;
    private final int ord;
    private final boolean peerToPeer;
    private final Set<RtrType> rtrTypes;
    private final byte[] privateData;
    private final int privateDataCap;
    private final int mulpdu;
    private final Duration connectTimeout;
    private final Duration mpaReplyTimeout;
    private final Duration mpaRequestTimeout;
    private final Duration firstFpduDelay;
    /** Capture file of the connection (set only by {@link #capture(Path)} on a fresh copy), or null. */
    private java.nio.file.Path capture;

    private ConnectOptions(int mpaRevision, boolean crc, boolean markers, int ird, int ord, boolean peerToPeer,
                           Set<RtrType> rtrTypes, byte[] privateData, int privateDataCap, int mulpdu,
                           Duration connectTimeout, Duration mpaReplyTimeout, Duration mpaRequestTimeout,
                           Duration firstFpduDelay) {
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("MPA revision must be 1 or 2: " + mpaRevision);
        }
        if (ird < 0 || ird > MAX_IRD_ORD || ord < 0 || ord > MAX_IRD_ORD) {
            throw new IllegalArgumentException("IRD/ORD must be 0.." + MAX_IRD_ORD + ": " + ird + "/" + ord);
        }
        if (peerToPeer && mpaRevision != 2) {
            throw new IllegalArgumentException("peer-to-peer RTR needs MPA revision 2");
        }
        if (peerToPeer && rtrTypes.isEmpty()) {
            throw new IllegalArgumentException("peer-to-peer needs at least one RTR type");
        }
        if (privateDataCap < 0 || privateDataCap > MPA_MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data cap must be 0.." + MPA_MAX_PRIVATE_DATA);
        }
        int appLimit = privateDataCap - (mpaRevision == 2 ? 4 : 0);
        if (privateData.length > appLimit) {
            throw new IllegalArgumentException("private data " + privateData.length + " > " + appLimit
                    + " (cap " + privateDataCap + (mpaRevision == 2 ? " minus 4 for IRD/ORD)" : ")"));
        }
        if (mulpdu != 0 && (mulpdu < 64 || mulpdu > 65535)) {
            throw new IllegalArgumentException("MULPDU must be 0 (auto) or 64..65535: " + mulpdu);
        }
        for (Duration d : new Duration[] {connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay}) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("negative duration " + d);
            }
        }
        this.mpaRevision = mpaRevision;
        this.crc = crc;
        this.markers = markers;
        this.ird = ird;
        this.ord = ord;
        this.peerToPeer = peerToPeer;
        this.rtrTypes = rtrTypes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(rtrTypes));
        this.privateData = privateData.clone();
        this.privateDataCap = privateDataCap;
        this.mulpdu = mulpdu;
        this.connectTimeout = connectTimeout;
        this.mpaReplyTimeout = mpaReplyTimeout;
        this.mpaRequestTimeout = mpaRequestTimeout;
        this.firstFpduDelay = firstFpduDelay;
    }

    public static ConnectOptions defaults() {
        return DEFAULTS;
    }

    private ConnectOptions with(int rev, boolean c, boolean m, int i, int o, boolean p2p, Set<RtrType> rtr, byte[] pd,
                                int cap, int mul, Duration ct, Duration rep, Duration req, Duration delay) {
        ConnectOptions n = new ConnectOptions(rev, c, m, i, o, p2p, rtr, pd, cap, mul, ct, rep, req, delay);
        n.capture = capture;
        return n;
    }

    /**
     * Writes a pcap of this connection as it looked on the wire (the MPA set-up frames and every FPDU
     * in both directions, with synthesized TCP/IP headers; Netty's PcapWriteHandler at the head of the
     * pipeline) to {@code file}, replaced if it exists; closed with the stream. Applies to connections
     * this side initiates ({@code connect}); null turns it off. Readable by {@code jrnic decode},
     * Wireshark and tshark.
     */
    public ConnectOptions capture(java.nio.file.Path file) {
        ConnectOptions n = with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap,
                mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
        n.capture = file;
        return n;
    }

    /** The capture file, or null. */
    public java.nio.file.Path capture() {
        return capture;
    }

    public ConnectOptions mpaRevision(int v) {
        return with(v, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    /** Request CRC-32C on FPDUs (C flag). */
    public ConnectOptions crc(boolean v) {
        return with(mpaRevision, v, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    /** Request markers in the stream this side receives (M flag). Needs DeviceCapability.MARKERS. */
    public ConnectOptions markers(boolean v) {
        return with(mpaRevision, crc, v, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    public ConnectOptions ird(int v) {
        return with(mpaRevision, crc, markers, v, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    public ConnectOptions ord(int v) {
        return with(mpaRevision, crc, markers, ird, v, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    /** Enable peer-to-peer mode offering {@code types} as RTR (RFC 6581). */
    public ConnectOptions peerToPeer(RtrType... types) {
        Set<RtrType> s = types.length == 0 ? Set.of() : EnumSet.copyOf(Arrays.asList(types));
        return with(mpaRevision, crc, markers, ird, ord, true, s, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    public ConnectOptions noPeerToPeer() {
        return with(mpaRevision, crc, markers, ird, ord, false, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    /** Application private data for the MPA Request (copied). */
    public ConnectOptions privateData(byte[] v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, Objects.requireNonNull(v), privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    /** Advertise a buffer in the private data (16-byte wire form). */
    public ConnectOptions privateData(RemoteBuffer rb) {
        return privateData(rb.toBytes());
    }

    /** Cap on total MPA private data (IRD/ORD words included), 0..512. */
    public ConnectOptions privateDataCap(int v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, v, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    /** Maximum ULPDU per FPDU; 0 derives it from the MSS. */
    public ConnectOptions mulpdu(int v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, v, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    public ConnectOptions connectTimeout(Duration v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, v, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay);
    }

    public ConnectOptions mpaReplyTimeout(Duration v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, v, mpaRequestTimeout, firstFpduDelay);
    }

    public ConnectOptions mpaRequestTimeout(Duration v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, v, firstFpduDelay);
    }

    public ConnectOptions firstFpduDelay(Duration v) {
        return with(mpaRevision, crc, markers, ird, ord, peerToPeer, rtrTypes, privateData, privateDataCap, mulpdu, connectTimeout, mpaReplyTimeout, mpaRequestTimeout, v);
    }

    public int mpaRevision() { return mpaRevision; }
    public boolean crc() { return crc; }
    public boolean markers() { return markers; }
    public int ird() { return ird; }
    public int ord() { return ord; }
    public boolean isPeerToPeer() { return peerToPeer; }
    public Set<RtrType> rtrTypes() { return rtrTypes; }
    public byte[] privateData() { return privateData.clone(); }
    public int privateDataCap() { return privateDataCap; }
    /** Largest application private data: cap minus 4 with revision 2. */
    public int applicationPrivateDataLimit() { return privateDataCap - (mpaRevision == 2 ? 4 : 0); }
    public int mulpdu() { return mulpdu; }
    public Duration connectTimeout() { return connectTimeout; }
    public Duration mpaReplyTimeout() { return mpaReplyTimeout; }
    public Duration mpaRequestTimeout() { return mpaRequestTimeout; }
    public Duration firstFpduDelay() { return firstFpduDelay; }

    @Override
    public String toString() {
        return "ConnectOptions[rev=" + mpaRevision + " crc=" + crc + " markers=" + markers + " ird=" + ird + " ord=" + ord
                + " p2p=" + peerToPeer + rtrTypes + " pd=" + privateData.length + "/" + privateDataCap + " mulpdu=" + mulpdu + "]";
    }
}
