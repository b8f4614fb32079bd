package io.jrnic.interop.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacketDecoderTest {
    private final List<String> notes = new ArrayList<>();
    private final PacketDecoder decoder = new PacketDecoder(notes::add);
    private static final byte[] PAYLOAD = {'M', 'P', 'A', '!', 0, 1};

    /** TCP header with 12 bytes of options (data offset 8), ports 7174 -> 37120, seq 0x01020304. */
    private static byte[] tcp(byte[] payload) {
        byte[] t = new byte[32 + payload.length];
        t[0] = 0x1C;
        t[1] = 0x06;
        t[2] = (byte) 0x91;
        t[3] = 0x00;
        t[4] = 1;
        t[5] = 2;
        t[6] = 3;
        t[7] = 4;
        t[12] = (byte) 0x80;
        t[13] = 0x18;
        t[20] = 1;
        t[21] = 1;
        t[22] = 8;
        t[23] = 10;
        System.arraycopy(payload, 0, t, 32, payload.length);
        return t;
    }

    /** IPv4 with 4 bytes of options (IHL 6). */
    private static byte[] ipv4(byte[] tcp) {
        byte[] ip = new byte[24 + tcp.length];
        ip[0] = 0x46;
        ip[2] = (byte) (ip.length >> 8);
        ip[3] = (byte) ip.length;
        ip[8] = 64;
        ip[9] = 6;
        ip[12] = 10;
        ip[15] = 1;
        ip[16] = 10;
        ip[19] = 2;
        ip[20] = 1;  // NOP options
        ip[21] = 1;
        ip[22] = 1;
        ip[23] = 0;
        System.arraycopy(tcp, 0, ip, 24, tcp.length);
        return ip;
    }

    /** IPv6 with a hop-by-hop and a destination options header before TCP. */
    private static byte[] ipv6(byte[] tcp) {
        byte[] ip = new byte[40 + 8 + 16 + tcp.length];
        ip[0] = 0x60;
        int plen = ip.length - 40;
        ip[4] = (byte) (plen >> 8);
        ip[5] = (byte) plen;
        ip[6] = 0;      // hop-by-hop
        ip[7] = 64;
        ip[23] = 1;     // ::1
        ip[39] = 1;
        ip[40] = 60;    // next: destination options
        ip[41] = 0;     // 8 bytes
        ip[48] = 6;     // next: TCP
        ip[49] = 1;     // 16 bytes
        System.arraycopy(tcp, 0, ip, 64, tcp.length);
        return ip;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(a);
        o.writeBytes(b);
        return o.toByteArray();
    }

    private TcpSegment decode(int linkType, byte[] frame) {
        return decoder.decode(new PcapPacket(7, 0, linkType, frame, frame.length));
    }

    private static void assertSegment(TcpSegment s) {
        assertNotNull(s);
        assertEquals(7174, s.flow().src().port());
        assertEquals(37120, s.flow().dst().port());
        assertEquals(0x01020304L, s.seq());
        assertEquals(0x18, s.flags());
        assertArrayEquals(PAYLOAD, s.payload());
        assertEquals(0, s.missing());
    }

    @Test
    void ethernetWithVlanTagAndPaddingAndIpv4Options() {
        byte[] eth = new byte[18];
        eth[12] = (byte) 0x81;
        eth[16] = 0x08;
        byte[] frame = concat(concat(eth, ipv4(tcp(PAYLOAD))), new byte[7]);  // 7 bytes of Ethernet padding
        TcpSegment s = decode(PacketDecoder.LINKTYPE_ETHERNET, frame);
        assertSegment(s);
        assertEquals("10.0.0.1:7174 > 10.0.0.2:37120", s.flow().toString());
    }

    @Test
    void bsdLoopbackInBothByteOrdersAndLoop() {
        assertSegment(decode(PacketDecoder.LINKTYPE_NULL, concat(new byte[] {2, 0, 0, 0}, ipv4(tcp(PAYLOAD)))));
        assertSegment(decode(PacketDecoder.LINKTYPE_NULL, concat(new byte[] {0, 0, 0, 2}, ipv4(tcp(PAYLOAD)))));
        assertSegment(decode(PacketDecoder.LINKTYPE_NULL, concat(new byte[] {30, 0, 0, 0}, ipv6(tcp(PAYLOAD)))));
        assertSegment(decode(PacketDecoder.LINKTYPE_LOOP, concat(new byte[] {0, 0, 0, 2}, ipv4(tcp(PAYLOAD)))));
    }

    @Test
    void linuxCookedV1AndV2() {
        byte[] sll = new byte[16];
        sll[14] = (byte) 0x86;
        sll[15] = (byte) 0xDD;
        TcpSegment s = decode(PacketDecoder.LINKTYPE_LINUX_SLL, concat(sll, ipv6(tcp(PAYLOAD))));
        assertSegment(s);
        assertEquals("[0:0:0:0:0:0:0:1]:7174 > [0:0:0:0:0:0:0:1]:37120", s.flow().toString());
        byte[] sll2 = new byte[20];
        sll2[0] = 0x08;
        assertSegment(decode(PacketDecoder.LINKTYPE_LINUX_SLL2, concat(sll2, ipv4(tcp(PAYLOAD)))));
    }

    @Test
    void rawIpLinkTypes() {
        assertSegment(decode(PacketDecoder.LINKTYPE_RAW, ipv4(tcp(PAYLOAD))));
        assertSegment(decode(12, ipv6(tcp(PAYLOAD))));
        assertSegment(decode(PacketDecoder.LINKTYPE_IPV4, ipv4(tcp(PAYLOAD))));
        assertSegment(decode(PacketDecoder.LINKTYPE_IPV6, ipv6(tcp(PAYLOAD))));
        assertNull(decode(PacketDecoder.LINKTYPE_IPV6, ipv4(tcp(PAYLOAD))));
        assertTrue(notes.get(0).contains("IP version 4 where 6 was expected"), notes.toString());
    }

    @Test
    void snapLengthCutIsCountedAsMissingPayload() {
        byte[] ip = ipv4(tcp(PAYLOAD));
        byte[] cut = java.util.Arrays.copyOf(ip, ip.length - 4);
        TcpSegment s = decode(PacketDecoder.LINKTYPE_RAW, cut);
        assertArrayEquals(new byte[] {'M', 'P'}, s.payload());
        assertEquals(4, s.missing());
        assertEquals(6, s.payloadLength());
    }

    @Test
    void truncatedHeadersAreSkippedWithANoteNeverAnException() {
        byte[] full = concat(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0}, ipv4(tcp(PAYLOAD)));
        for (int len = 0; len < 14 + 24 + 32; len++) {
            assertNull(decode(PacketDecoder.LINKTYPE_ETHERNET, java.util.Arrays.copyOf(full, len)), "len " + len);
        }
        assertTrue(notes.stream().allMatch(n -> n.startsWith("frame 7: ") && n.endsWith(", skipped")), notes.toString());
        assertTrue(notes.contains("frame 7: truncated TCP options, skipped"), notes.toString());
        assertTrue(notes.contains("frame 7: truncated IPv4 header, skipped"), notes.toString());
        byte[] v6 = concat(new byte[] {30, 0, 0, 0}, ipv6(tcp(PAYLOAD)));
        for (int len = 0; len < 4 + 64 + 32; len++) {
            assertNull(decode(PacketDecoder.LINKTYPE_NULL, java.util.Arrays.copyOf(v6, len)), "len " + len);
        }
        assertTrue(notes.contains("frame 7: truncated IPv6 extension header, skipped"), notes.toString());
    }

    @Test
    void nonTcpAndFragmentsAreSkipped() {
        byte[] ip = ipv4(tcp(PAYLOAD));
        ip[9] = 17;
        assertNull(decode(PacketDecoder.LINKTYPE_RAW, ip));
        byte[] frag = ipv4(tcp(PAYLOAD));
        frag[6] = 0x20;  // more fragments
        assertNull(decode(PacketDecoder.LINKTYPE_RAW, frag));
        assertEquals(List.of("frame 7: IPv4 fragment not reassembled, skipped"), notes);
        assertNull(decode(105, ip));
    }
}
