package io.jrnic.interop.pcap;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetSocketAddress;

/**
 * Writes a synthetic IPv4 TCP conversation over Ethernet to a classic pcap: a three-way
 * handshake, then one TCP segment per {@link #send} call (exact segmentation, sequence numbers
 * tracked per direction, an optional explicit sequence offset for crafting retransmissions and
 * reordering). Checksums are left zero (capture tools do not verify them by default).
 */
public final class TcpConversationWriter implements AutoCloseable {
    private final ClassicPcapWriter pcap;
    private final boolean shared;
    private final InetSocketAddress initiator;
    private final InetSocketAddress responder;
    private final long[] isn = {0x10000000L, 0x7FFFFF00L};
    private final long[] next = new long[2];
    private long time = 1_700_000_000_000_000_000L;

    public TcpConversationWriter(OutputStream out, InetSocketAddress initiator, InetSocketAddress responder)
            throws IOException {
        this.pcap = new ClassicPcapWriter(out, PacketDecoder.LINKTYPE_ETHERNET);
        this.shared = false;
        this.initiator = initiator;
        this.responder = responder;
        if (!(initiator.getAddress() instanceof Inet4Address) || !(responder.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException("IPv4 endpoints only");
        }
    }

    /**
     * A conversation written into a pcap shared with others (one file, many connections); closing this
     * writer does not close it.
     */
    public TcpConversationWriter(ClassicPcapWriter shared, InetSocketAddress initiator, InetSocketAddress responder) {
        this.pcap = shared;
        this.shared = true;
        this.initiator = initiator;
        this.responder = responder;
        if (!(initiator.getAddress() instanceof Inet4Address) || !(responder.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException("IPv4 endpoints only");
        }
    }

    /** The timestamp of the next segment (nanoseconds since the epoch); each segment adds 1 ms otherwise. */
    public TcpConversationWriter time(long epochNanos) {
        time = epochNanos;
        return this;
    }

    /** A FIN (or, with {@code reset}, a RST) from one side. */
    public void end(boolean fromInitiator, boolean reset) throws IOException {
        int i = fromInitiator ? 0 : 1;
        segment(fromInitiator, isn[i] + next[i], reset ? TcpSegment.RST : TcpSegment.FIN | TcpSegment.ACK, new byte[0]);
        if (!reset) {
            next[i]++;
        }
    }

    /** Initial sequence numbers (call before {@link #handshake}). */
    public TcpConversationWriter isn(long initiatorIsn, long responderIsn) {
        isn[0] = initiatorIsn & 0xFFFFFFFFL;
        isn[1] = responderIsn & 0xFFFFFFFFL;
        return this;
    }

    public void handshake() throws IOException {
        segment(true, isn[0], TcpSegment.SYN, new byte[0]);
        segment(false, isn[1], TcpSegment.SYN | TcpSegment.ACK, new byte[0]);
        next[0] = 1;
        next[1] = 1;
        segment(true, isn[0] + 1, TcpSegment.ACK, new byte[0]);
    }

    /** Sends the next bytes of a direction as one segment. */
    public void send(boolean fromInitiator, byte[] payload) throws IOException {
        int i = fromInitiator ? 0 : 1;
        sendAt(fromInitiator, next[i] - 1, payload);
        next[i] += payload.length;
    }

    /** Sends bytes at an explicit stream offset (0 = first byte after the SYN) without advancing. */
    public void sendAt(boolean fromInitiator, long streamOffset, byte[] payload) throws IOException {
        int i = fromInitiator ? 0 : 1;
        segment(fromInitiator, isn[i] + 1 + streamOffset, TcpSegment.ACK | 0x08, payload);
    }

    /** Advances a direction's sequence number without writing (a segment lost before the capture). */
    public void skip(boolean fromInitiator, int length) {
        next[fromInitiator ? 0 : 1] += length;
    }

    public long streamOffset(boolean fromInitiator) {
        return next[fromInitiator ? 0 : 1] - 1;
    }

    private void segment(boolean fromInitiator, long seq, int flags, byte[] payload) throws IOException {
        InetSocketAddress s = fromInitiator ? initiator : responder;
        InetSocketAddress d = fromInitiator ? responder : initiator;
        int ipLen = 20 + 20 + payload.length;
        byte[] f = new byte[14 + ipLen];
        f[12] = 0x08;  // EtherType IPv4
        f[14] = 0x45;
        f[16] = (byte) (ipLen >> 8);
        f[17] = (byte) ipLen;
        f[20] = 0x40;  // DF
        f[22] = 64;
        f[23] = 6;
        System.arraycopy(s.getAddress().getAddress(), 0, f, 26, 4);
        System.arraycopy(d.getAddress().getAddress(), 0, f, 30, 4);
        int t = 34;
        f[t] = (byte) (s.getPort() >> 8);
        f[t + 1] = (byte) s.getPort();
        f[t + 2] = (byte) (d.getPort() >> 8);
        f[t + 3] = (byte) d.getPort();
        long q = seq & 0xFFFFFFFFL;
        f[t + 4] = (byte) (q >> 24);
        f[t + 5] = (byte) (q >> 16);
        f[t + 6] = (byte) (q >> 8);
        f[t + 7] = (byte) q;
        long a = (isn[fromInitiator ? 1 : 0] + next[fromInitiator ? 1 : 0]) & 0xFFFFFFFFL;
        if ((flags & TcpSegment.ACK) != 0) {
            f[t + 8] = (byte) (a >> 24);
            f[t + 9] = (byte) (a >> 16);
            f[t + 10] = (byte) (a >> 8);
            f[t + 11] = (byte) a;
        }
        f[t + 12] = 0x50;
        f[t + 13] = (byte) flags;
        f[t + 14] = (byte) 0xFF;
        f[t + 15] = (byte) 0xFF;
        System.arraycopy(payload, 0, f, t + 20, payload.length);
        pcap.write(time, f);
        time += 1_000_000L;
    }

    @Override
    public void close() throws IOException {
        if (!shared) {
            pcap.close();
        }
    }
}
