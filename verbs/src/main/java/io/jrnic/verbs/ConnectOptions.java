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
 * <li>Private-data cap 256 bytes on what we send (siw closes on more, and crashes as initiator on a
 *     larger Reply): 252 for the application with revision 2. Received frames may carry up to 512.</li>
 * <li>MULPDU 0 = derive from the path MSS (one FPDU per TCP segment, like siw).</li>
 * <li>RFC 5044 timing rule enforced: no FPDU accepted behind the peer's set-up frame
 *     ({@link #lenientTiming(boolean)} relaxes it).</li>
 * <li>Received Terminates read in the RFC layout ({@link #terminateLayout(TerminateLayout)}).</li>
 * <li>Timeouts: TCP connect 5 s, MPA Reply 10 s (initiator), MPA Request 5 s (responder): siw's values;
 *     transmit stall 60 s (a peer that does not drain the stream, {@link #transmitStallTimeout(Duration)});
 *     no dead peer timeout ({@link #deadPeerTimeout(Duration)}: off, as TCP's default).</li>
 * <li>firstFpduDelay 0: an initiator-side pause between the MPA Reply and the first FPDU, for siw's
 *     responder race (siw-notes "Responder race"); set it (e.g. 50 ms) when talking to siw over a slow link.</li>
 * </ul>
 */
public final class ConnectOptions {
    /** RFC 5044 section 7.1 limit on private data. */
    public static final int MPA_MAX_PRIVATE_DATA = 512;
    /** Largest IRD/ORD value an MPA v2 word carries (14 bits). */
    public static final int MAX_IRD_ORD = 0x3FFF;

    /** Default of {@link #transmitStallTimeout(Duration)}: 60 seconds (declared before DEFAULTS, which uses it). */
    public static final Duration DEFAULT_TRANSMIT_STALL_TIMEOUT = Duration.ofSeconds(60);

    private static final ConnectOptions DEFAULTS = new ConnectOptions();

    private int mpaRevision = 2;
    private boolean crc;
    private boolean markers;
    private int ird = 16;
    private int ord = 16;
    private boolean peerToPeer;
    private Set<RtrType> rtrTypes = Set.copyOf(EnumSet.of(RtrType.WRITE, RtrType.READ));
    private byte[] privateData = new byte[0];
    private int privateDataCap = 256;
    private int mulpdu;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration mpaReplyTimeout = Duration.ofSeconds(10);
    private Duration mpaRequestTimeout = Duration.ofSeconds(5);
    private Duration firstFpduDelay = Duration.ZERO;
    private boolean lenientTiming;
    private TerminateLayout terminateLayout = TerminateLayout.RFC;
    private int maxPendingSetups = DEFAULT_MAX_PENDING_SETUPS;
    private Duration transmitStallTimeout = DEFAULT_TRANSMIT_STALL_TIMEOUT;
    private Duration deadPeerTimeout = Duration.ZERO;
    private Duration tcpRtoMin = Duration.ZERO;
    private boolean rdmapExtensions = true;
    /** Capture file of the connection, or null. */
    private java.nio.file.Path capture;

    private ConnectOptions() {
    }

    /** A copy changed by {@code change}, then checked: every "setter" goes through here. */
    private ConnectOptions with(java.util.function.Consumer<ConnectOptions> change) {
        ConnectOptions n = new ConnectOptions();
        n.mpaRevision = mpaRevision;
        n.crc = crc;
        n.markers = markers;
        n.ird = ird;
        n.ord = ord;
        n.peerToPeer = peerToPeer;
        n.rtrTypes = rtrTypes;
        n.privateData = privateData;
        n.privateDataCap = privateDataCap;
        n.mulpdu = mulpdu;
        n.connectTimeout = connectTimeout;
        n.mpaReplyTimeout = mpaReplyTimeout;
        n.mpaRequestTimeout = mpaRequestTimeout;
        n.firstFpduDelay = firstFpduDelay;
        n.lenientTiming = lenientTiming;
        n.terminateLayout = terminateLayout;
        n.maxPendingSetups = maxPendingSetups;
        n.transmitStallTimeout = transmitStallTimeout;
        n.deadPeerTimeout = deadPeerTimeout;
        n.tcpRtoMin = tcpRtoMin;
        n.rdmapExtensions = rdmapExtensions;
        n.capture = capture;
        change.accept(n);
        n.check();
        return n;
    }

    private void check() {
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
        if (!deadPeerTimeout.isZero() && deadPeerTimeout.toSeconds() < 2) {
            throw new IllegalArgumentException("dead peer timeout must be 0 (off) or at least 2 s: " + deadPeerTimeout);
        }
        if (!tcpRtoMin.isZero() && (tcpRtoMin.compareTo(Duration.ofMillis(1)) < 0
                || tcpRtoMin.compareTo(MAX_TCP_RTO_MIN) > 0)) {
            throw new IllegalArgumentException("TCP RTO minimum must be 0 (the kernel's) or 1 ms..200 ms: " + tcpRtoMin);
        }
        if (maxPendingSetups < 1) {
            throw new IllegalArgumentException("maxPendingSetups must be at least 1: " + maxPendingSetups);
        }
        if (privateDataCap < 0 || privateDataCap > MPA_MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data cap must be 0.." + MPA_MAX_PRIVATE_DATA);
        }
        int appLimit = applicationPrivateDataLimit();
        if (privateData.length > appLimit) {
            throw new IllegalArgumentException("private data " + privateData.length + " > " + appLimit
                    + " (cap " + privateDataCap + (mpaRevision == 2 ? " minus 4 for IRD/ORD)" : ")"));
        }
        if (mulpdu != 0 && (mulpdu < 64 || mulpdu > 65535)) {
            throw new IllegalArgumentException("MULPDU must be 0 (auto) or 64..65535: " + mulpdu);
        }
        for (Duration d : new Duration[] {connectTimeout, mpaReplyTimeout, mpaRequestTimeout, firstFpduDelay,
                transmitStallTimeout, deadPeerTimeout, tcpRtoMin}) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("negative duration " + d);
            }
        }
    }

    public static ConnectOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Writes a pcap of this connection as it looked on the wire (the MPA set-up frames and every FPDU
     * in both directions, with synthesized TCP/IP headers; Netty's PcapWriteHandler at the head of the
     * pipeline) to {@code file}, replaced if it exists; closed with the stream. On {@code connect}: that
     * connection. On {@code listen}: every accepted stream, the first to {@code file}, the n-th to
     * {@code file} with "-n" before its extension ({@code srv.pcap}, {@code srv-2.pcap}, ...). Null turns
     * it off. Readable by {@code jrnic decode}, Wireshark and tshark.
     */
    public ConnectOptions capture(java.nio.file.Path file) {
        return with(n -> n.capture = file);
    }

    /** The capture file, or null. */
    public java.nio.file.Path capture() {
        return capture;
    }

    public ConnectOptions mpaRevision(int v) {
        return with(n -> n.mpaRevision = v);
    }

    /** Request CRC-32C on FPDUs (C flag). */
    public ConnectOptions crc(boolean v) {
        return with(n -> n.crc = v);
    }

    /** Request markers in the stream this side receives (M flag). Needs DeviceCapability.MARKERS. */
    public ConnectOptions markers(boolean v) {
        return with(n -> n.markers = v);
    }

    public ConnectOptions ird(int v) {
        return with(n -> n.ird = v);
    }

    public ConnectOptions ord(int v) {
        return with(n -> n.ord = v);
    }

    /** Enable peer-to-peer mode offering {@code types} as RTR (RFC 6581). */
    public ConnectOptions peerToPeer(RtrType... types) {
        Set<RtrType> s = types.length == 0 ? Set.of() : Set.copyOf(EnumSet.copyOf(Arrays.asList(types)));
        return with(n -> {
            n.peerToPeer = true;
            n.rtrTypes = s;
        });
    }

    public ConnectOptions noPeerToPeer() {
        return with(n -> n.peerToPeer = false);
    }

    /** Application private data for the MPA Request (copied). */
    public ConnectOptions privateData(byte[] v) {
        byte[] copy = Objects.requireNonNull(v).clone();
        return with(n -> n.privateData = copy);
    }

    /** Advertise a buffer in the private data (16-byte wire form). */
    public ConnectOptions privateData(RemoteBuffer rb) {
        return privateData(rb.toBytes());
    }

    /**
     * Cap on the MPA private data this side sends (IRD/ORD words included), 0..512. Whatever the cap,
     * a peer's frame with up to 512 bytes is accepted (RFC 5044 section 7.1).
     */
    public ConnectOptions privateDataCap(int v) {
        return with(n -> n.privateDataCap = v);
    }

    /** Maximum ULPDU per FPDU; 0 derives it from the MSS. */
    public ConnectOptions mulpdu(int v) {
        return with(n -> n.mulpdu = v);
    }

    public ConnectOptions connectTimeout(Duration v) {
        return with(n -> n.connectTimeout = Objects.requireNonNull(v));
    }

    public ConnectOptions mpaReplyTimeout(Duration v) {
        return with(n -> n.mpaReplyTimeout = Objects.requireNonNull(v));
    }

    public ConnectOptions mpaRequestTimeout(Duration v) {
        return with(n -> n.mpaRequestTimeout = Objects.requireNonNull(v));
    }

    public ConnectOptions firstFpduDelay(Duration v) {
        return with(n -> n.firstFpduDelay = Objects.requireNonNull(v));
    }

    /**
     * Leniency on the RFC 5044 section 7.1.1 timing rule. Default false (the RFC): bytes that follow
     * the peer's MPA Request before our Reply went out (an initiator pipelining FPDUs behind its
     * Request), or that follow the peer's Reply in the same read, fail the set-up with LLP 0x04
     * (reason BYTES_AFTER_SETUP_FRAME). True: such bytes are kept, in order, and fed to the QP.
     */
    public ConnectOptions lenientTiming(boolean v) {
        return with(n -> n.lenientTiming = v);
    }

    /**
     * How Terminates received on this connection are read (RFC 5040 section 4.8 layout, Linux siw's
     * little-endian bitfield reading, or either, reporting which matched in {@link TerminateInfo#layout()}).
     * Default {@link TerminateLayout#RFC}. Only receiving changes: Terminates are always sent in the RFC layout.
     */
    public ConnectOptions terminateLayout(TerminateLayout v) {
        return with(n -> n.terminateLayout = Objects.requireNonNull(v));
    }

    /** Default of {@link #maxPendingSetups(int)}. */
    public static final int DEFAULT_MAX_PENDING_SETUPS = 1024;

    /**
     * Listeners: how many accepted streams may be in MPA set-up at once (connected, Request not yet answered by
     * the consumer's accept or reject). When one more arrives, the oldest pending stream is reset (RST), so
     * that peers that connect and stall hold at most this many streams and a well-behaved client, whose
     * set-up takes one round trip, is still served during such a flood; each pending stream also ends at
     * {@link #mpaRequestTimeout(Duration)}. Evictions count as MPA set-up failures with reason
     * {@code LISTENER_FULL} in the device's statistics. Default {@value #DEFAULT_MAX_PENDING_SETUPS}.
     */
    public ConnectOptions maxPendingSetups(int v) {
        return with(n -> n.maxPendingSetups = v);
    }

    /**
     * How long the stream's outbound buffer may stay above its low water mark without a break while the QP has
     * bytes to send: a peer that stops reading (zero window) or reads a few bytes per second holds the QP's
     * memory and work requests no longer than this. When it expires the stream is lost as an LLP error
     * (RFC 5044 section 8): it is reset (no Terminate can get through a closed window), the QP goes to ERROR,
     * every outstanding work request completes with {@code WR_FLUSH_ERROR}, and the QP's counter
     * {@code transmitStallTimeouts} counts it. {@link Duration#ZERO} turns the check off (a stalled peer is then
     * held until the consumer disconnects). Default {@link #DEFAULT_TRANSMIT_STALL_TIMEOUT}; applies to both
     * roles (set it on the listener's options for accepted streams).
     */
    public ConnectOptions transmitStallTimeout(Duration v) {
        return with(n -> n.transmitStallTimeout = Objects.requireNonNull(v));
    }

    /**
     * How long the stream may go without hearing from the peer while it waits for it, before it is lost as an LLP
     * error (RFC 5044 section 8: the QP goes to ERROR, its outstanding work requests complete with
     * {@code WR_FLUSH_ERROR}, {@code QP_LLP_ERROR}). It covers what the transmit stall timeout cannot: a link or host
     * that dies while this side waits for a Read Response or a message with nothing of its own left unacknowledged
     * (TCP then never retransmits, so it never gives up), and data sent and never acknowledged (the kernel's own limit,
     * {@code net.ipv4.tcp_retries2}, is about 15 minutes). On the kernel's TCP: keepalive probes on an idle stream
     * from half the timeout, and {@code TCP_USER_TIMEOUT}, which ends the stream once it heard nothing for the
     * timeout; epoll streams only (NIO has no user timeout; there it is ignored). {@link Duration#ZERO}, the default,
     * leaves the stream as TCP's default does: a dead peer that sent no reset is waited for. Whole seconds, at least 2.
     */
    public ConnectOptions deadPeerTimeout(Duration v) {
        return with(n -> n.deadPeerTimeout = Objects.requireNonNull(v));
    }

    /** The kernel's own minimum retransmission timeout, and the most {@link #tcpRtoMin} may be (TCP_RTO_MIN). */
    public static final Duration MAX_TCP_RTO_MIN = Duration.ofMillis(200);

    /**
     * The stream's minimum TCP retransmission timeout, lower than the kernel's 200 ms (Linux's
     * {@code TCP_RTO_MIN_US}, kernel 6.15 and later; the per-route {@code ip route ... rto_min} is the same
     * setting for a whole route). It matters where a direction carries few segments, as an RDMA READ requester's:
     * a list of Read Requests leaves in one segment, and when that lone segment is lost neither duplicate
     * acknowledgements nor SACK can reveal it, so TCP waits for its tail loss probe, which with one segment in
     * flight waits out the minimum RTO as well (RFC 8985 section 7.2), or for the RTO itself: 200 ms in which
     * the responder has nothing to answer. The price is earlier, possibly spurious, retransmissions on a path
     * whose round trips vary by more than the minimum: for a data centre, not a WAN. Epoll streams only; a kernel
     * without the option, or that refuses the value (below two of its clock ticks), leaves the stream as it is
     * and the refusal is logged once. {@link Duration#ZERO}, the default, leaves it to the kernel. 1 ms..200 ms.
     */
    public ConnectOptions tcpRtoMin(Duration v) {
        return with(n -> n.tcpRtoMin = Objects.requireNonNull(v));
    }

    /**
     * Whether the ULP on this connection uses the RFC 7306 extensions (Immediate Data, Atomic Requests and Responses).
     * RFC 7306 has no MPA-level negotiation: the ULPs agree. Default true (jrnic takes them and answers them on their
     * merits). False: received messages with those opcodes are refused as RFC 5040 alone requires, with a Terminate
     * RDMAP/2/0x06 (unexpected opcode), as Linux siw does; what this side posts is not checked against it.
     */
    public ConnectOptions rdmapExtensions(boolean v) {
        return with(n -> n.rdmapExtensions = v);
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
    public boolean lenientTiming() { return lenientTiming; }
    public TerminateLayout terminateLayout() { return terminateLayout; }
    public int maxPendingSetups() { return maxPendingSetups; }
    public Duration transmitStallTimeout() { return transmitStallTimeout; }
    public Duration deadPeerTimeout() { return deadPeerTimeout; }
    public Duration tcpRtoMin() { return tcpRtoMin; }
    public boolean rdmapExtensions() { return rdmapExtensions; }

    @Override
    public String toString() {
        return "ConnectOptions[rev=" + mpaRevision + " crc=" + crc + " markers=" + markers + " ird=" + ird + " ord=" + ord
                + " p2p=" + peerToPeer + rtrTypes + " pd=" + privateData.length + "/" + privateDataCap + " mulpdu=" + mulpdu
                + (lenientTiming ? " lenientTiming" : "") + " terminates=" + terminateLayout + "]";
    }
}
