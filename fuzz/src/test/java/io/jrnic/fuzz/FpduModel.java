package io.jrnic.fuzz;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * An independent, slow reading of an MPA FPDU stream (RFC 5044 sections 4.1 to 4.3), written
 * from the wire reference and not from the decoder: the events a decoder must report for it.
 * Stream positions count from {@code start}; a marker sits at every multiple of 512 (markers
 * on); a marker at an FPDU's first octet is its leading marker (FPDUPTR 0), any other marker met
 * before the CRC is inside the FPDU (FPDUPTR = its distance back to ULPDU_Length); the low two
 * bits of FPDUPTR and the 16 reserved bits are ignored. The CRC (CRC-32C, sent little-endian)
 * matches under one of the readings with or without the leading marker and a marker just before
 * the CRC field.
 */
final class FpduModel {
    private static final HexFormat HEX = HexFormat.of();

    final List<String> events = new ArrayList<>();
    /** True when an error stopped the stream (only without continueAfterError). */
    boolean stopped;
    /** Octets after the last whole FPDU. */
    int tail;
    /** Stream position of the first octet after the last whole FPDU. */
    long tailStart;
    int fpdus;

    /** An FPDU event: the bytes in hex, or their SHA-256 when long (fast enough for 64 KiB ULPDUs). */
    static String fpdu(long lengthPos, String check, byte[] ulpdu) {
        String bytes;
        if (ulpdu.length <= 64) {
            bytes = HEX.formatHex(ulpdu);
        } else {
            try {
                bytes = "sha256:" + HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(ulpdu));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return "FPDU@" + lengthPos + " " + check + " len=" + ulpdu.length + " " + bytes;
    }

    static String error(String error, long pos) {
        return error + "@" + pos;
    }

    FpduModel(byte[] s, long start, boolean markers, boolean crc, boolean continueAfterError) {
        int i = 0;
        while (i < s.length) {
            long fpduStart = start + i;
            int[] content = new int[16]; // indices into s of content octets
            int have = 0;
            List<long[]> markerList = new ArrayList<>(); // {position, fpduptr}
            int c = i;
            int need = 2;
            boolean whole = true;
            int trailingMarkerAt = -1;
            while (have < need) {
                if (markers && (start + c) % 512 == 0) {
                    if (c + 4 > s.length) {
                        whole = false;
                        break;
                    }
                    markerList.add(new long[] {start + c, ((s[c + 2] & 0xFF) << 8 | (s[c + 3] & 0xFF)) & 0xFFFC});
                    trailingMarkerAt = c;
                    c += 4;
                    continue;
                }
                if (c >= s.length) {
                    whole = false;
                    break;
                }
                content[have++] = c++;
                if (have == 2) {
                    int u = (s[content[0]] & 0xFF) << 8 | (s[content[1]] & 0xFF);
                    need = 2 + u + (-(2 + u) & 3) + 4;
                    content = Arrays.copyOf(content, need);
                }
            }
            if (!whole) {
                break;
            }
            int u = (s[content[0]] & 0xFF) << 8 | (s[content[1]] & 0xFF);
            long lengthPos = start + content[0];
            boolean bad = false;
            for (long[] m : markerList) {
                long expected = m[0] == fpduStart ? 0 : m[0] - lengthPos;
                if (m[1] != expected) {
                    events.add(error("MARKER_MISMATCH", m[0]));
                    bad = true;
                }
            }
            if (bad && !continueAfterError) {
                stopped = true;
                break;
            }
            String check = "OFF";
            if (crc) {
                int crcAt = content[need - 4];
                boolean lead = !markerList.isEmpty() && markerList.get(0)[0] == fpduStart;
                // a marker just before the CRC field: the last marker, ending where the CRC starts
                boolean trailing = trailingMarkerAt >= 0 && trailingMarkerAt + 4 == crcAt && trailingMarkerAt != i;
                int received = (s[crcAt] & 0xFF) | (s[crcAt + 1] & 0xFF) << 8 | (s[crcAt + 2] & 0xFF) << 16
                        | (s[crcAt + 3] & 0xFF) << 24;
                boolean good = false;
                for (int skipLead = 0; skipLead <= (lead ? 4 : 0); skipLead += 4) {
                    for (int skipTrail = 0; skipTrail <= (trailing ? 4 : 0); skipTrail += 4) {
                        CRC32C crc32c = new CRC32C();
                        crc32c.update(s, i + skipLead, crcAt - skipTrail - i - skipLead);
                        good |= (int) crc32c.getValue() == received;
                    }
                }
                check = good ? "GOOD" : "BAD";
                if (!good) {
                    events.add(error("CRC_ERROR", lengthPos));
                    if (!continueAfterError) {
                        stopped = true;
                        break;
                    }
                }
            }
            byte[] ulpdu = new byte[u];
            for (int k = 0; k < u; k++) {
                ulpdu[k] = s[content[2 + k]];
            }
            events.add(fpdu(lengthPos, check, ulpdu));
            fpdus++;
            i = c;
        }
        tail = s.length - i;
        tailStart = start + i;
    }

}
