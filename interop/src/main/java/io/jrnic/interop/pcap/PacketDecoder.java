package io.jrnic.interop.pcap;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Takes the TCP segment out of a captured packet: link layer (Ethernet with VLAN tags, BSD
 * loopback, Linux cooked v1/v2, raw IP), IPv4 (RFC 791, header options via IHL) or IPv6
 * (RFC 8200, extension headers skipped), TCP (RFC 9293, options via data offset).
 * Anything else yields null; malformed headers yield null and a note.
 */
public final class PacketDecoder {
    public static final int LINKTYPE_NULL = 0;
    public static final int LINKTYPE_ETHERNET = 1;
    public static final int LINKTYPE_RAW = 101;
    public static final int LINKTYPE_LOOP = 108;
    public static final int LINKTYPE_LINUX_SLL = 113;
    public static final int LINKTYPE_IPV4 = 228;
    public static final int LINKTYPE_IPV6 = 229;
    public static final int LINKTYPE_LINUX_SLL2 = 276;

    private final Consumer<String> notes;

    public PacketDecoder(Consumer<String> notes) {
        this.notes = notes;
    }

    public static boolean supported(int linkType) {
        return switch (linkType) {
            case LINKTYPE_NULL, LINKTYPE_ETHERNET, LINKTYPE_RAW, 12, 14, LINKTYPE_LOOP, LINKTYPE_LINUX_SLL,
                 LINKTYPE_IPV4, LINKTYPE_IPV6, LINKTYPE_LINUX_SLL2 -> true;
            default -> false;
        };
    }

    public TcpSegment decode(PcapPacket p) {
        byte[] d = p.data();
        switch (p.linkType()) {
            case LINKTYPE_ETHERNET:
                return ethernet(p, d);
            case LINKTYPE_NULL:
            case LINKTYPE_LOOP: {
                if (d.length < 4) {
                    return malformed(p, "truncated loopback header");
                }
                // AF value in the capturing host's byte order (NULL) or big-endian (LOOP)
                int af = d[0] == 0 && d[1] == 0 ? (d[2] & 0xFF) << 8 | (d[3] & 0xFF) : (d[0] & 0xFF) | (d[1] & 0xFF) << 8;
                return af == 2 || af == 24 || af == 28 || af == 30 ? ip(p, d, 4, -1) : null;
            }
            case LINKTYPE_LINUX_SLL:
                return d.length < 16 ? malformed(p, "truncated Linux cooked header") : byEtherType(p, d, 16, u16(d, 14));
            case LINKTYPE_LINUX_SLL2:
                return d.length < 20 ? malformed(p, "truncated Linux cooked v2 header") : byEtherType(p, d, 20, u16(d, 0));
            case LINKTYPE_RAW:
            case 12:
            case 14:
                return ip(p, d, 0, -1);
            case LINKTYPE_IPV4:
                return ip(p, d, 0, 4);
            case LINKTYPE_IPV6:
                return ip(p, d, 0, 6);
            default:
                return null;
        }
    }

    private TcpSegment ethernet(PcapPacket p, byte[] d) {
        int off = 12;
        while (true) {
            if (d.length < off + 2) {
                return malformed(p, "truncated Ethernet header");
            }
            int type = u16(d, off);
            if (type == 0x8100 || type == 0x88A8) {
                off += 4;  // IEEE 802.1Q / 802.1ad tag
                continue;
            }
            return byEtherType(p, d, off + 2, type);
        }
    }

    private TcpSegment byEtherType(PcapPacket p, byte[] d, int off, int type) {
        if (type == 0x0800) {
            return ip(p, d, off, 4);
        }
        if (type == 0x86DD) {
            return ip(p, d, off, 6);
        }
        return null;
    }

    private TcpSegment ip(PcapPacket p, byte[] d, int off, int expect) {
        if (d.length <= off) {
            return malformed(p, "no IP header");
        }
        int version = (d[off] & 0xFF) >> 4;
        if (expect != -1 && version != expect) {
            return malformed(p, "IP version " + version + " where " + expect + " was expected");
        }
        return version == 4 ? ipv4(p, d, off) : version == 6 ? ipv6(p, d, off) : null;
    }

    private TcpSegment ipv4(PcapPacket p, byte[] d, int off) {
        if (d.length < off + 20) {
            return malformed(p, "truncated IPv4 header");
        }
        int ihl = (d[off] & 0x0F) * 4;
        int total = u16(d, off + 2);
        if (ihl < 20 || total < ihl) {
            return malformed(p, "bad IPv4 header length " + ihl + " / total length " + total);
        }
        if (d.length < off + ihl) {
            return malformed(p, "truncated IPv4 options");
        }
        if (d[off + 9] != 6) {
            return null;
        }
        int frag = u16(d, off + 6);
        if ((frag & 0x3FFF) != 0) {
            notes.accept("frame " + p.frame() + ": IPv4 fragment not reassembled, skipped");
            return null;
        }
        InetAddress src = addr(d, off + 12, 4);
        InetAddress dst = addr(d, off + 16, 4);
        return tcp(p, d, off + ihl, off + total, src, dst);
    }

    private TcpSegment ipv6(PcapPacket p, byte[] d, int off) {
        if (d.length < off + 40) {
            return malformed(p, "truncated IPv6 header");
        }
        int end = off + 40 + u16(d, off + 4);
        int next = d[off + 6] & 0xFF;
        InetAddress src = addr(d, off + 8, 16);
        InetAddress dst = addr(d, off + 24, 16);
        int at = off + 40;
        for (int hops = 0; hops < 16; hops++) {  // RFC 8200 section 4: extension header chain
            if (next == 6) {
                return tcp(p, d, at, end, src, dst);
            }
            if (next != 0 && next != 43 && next != 44 && next != 60 && next != 51) {
                return null;
            }
            if (d.length < at + 8) {
                return malformed(p, "truncated IPv6 extension header");
            }
            if (next == 44 && (u16(d, at + 2) & 0xFFF9) != 0) {
                notes.accept("frame " + p.frame() + ": IPv6 fragment not reassembled, skipped");
                return null;
            }
            int len = next == 44 ? 8 : next == 51 ? ((d[at + 1] & 0xFF) + 2) * 4 : ((d[at + 1] & 0xFF) + 1) * 8;
            next = d[at] & 0xFF;
            at += len;
        }
        return malformed(p, "IPv6 extension header chain too long");
    }

    private TcpSegment tcp(PcapPacket p, byte[] d, int off, int ipEnd, InetAddress src, InetAddress dst) {
        if (d.length < off + 20 || ipEnd < off + 20) {
            return malformed(p, "truncated TCP header");
        }
        int hl = ((d[off + 12] & 0xFF) >> 4) * 4;
        if (hl < 20 || off + hl > ipEnd) {
            return malformed(p, "bad TCP data offset " + hl);
        }
        if (d.length < off + hl) {
            return malformed(p, "truncated TCP options");
        }
        int payloadEnd = Math.min(ipEnd, d.length);  // beyond ipEnd: Ethernet padding
        byte[] payload = Arrays.copyOfRange(d, off + hl, Math.max(off + hl, payloadEnd));
        int missing = Math.max(0, ipEnd - Math.max(payloadEnd, off + hl));
        TcpFlow flow = new TcpFlow(new Endpoint(src, u16(d, off)), new Endpoint(dst, u16(d, off + 2)));
        long seq = ((long) u16(d, off + 4) << 16) | u16(d, off + 6);
        return new TcpSegment(p.frame(), p.timestampNanos(), flow, seq, d[off + 13] & 0xFF, payload, missing);
    }

    private TcpSegment malformed(PcapPacket p, String what) {
        notes.accept("frame " + p.frame() + ": " + what + ", skipped");
        return null;
    }

    private static InetAddress addr(byte[] d, int off, int len) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(d, off, off + len));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);  // cannot happen for 4 or 16 bytes
        }
    }

    private static int u16(byte[] d, int i) {
        return (d[i] & 0xFF) << 8 | (d[i + 1] & 0xFF);
    }
}
