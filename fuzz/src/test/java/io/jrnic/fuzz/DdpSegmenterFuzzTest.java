package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.ddp.DdpSegmenter;
import java.math.BigInteger;

/**
 * DdpSegmenter (RFC 5041 section 5.2). Input: flags byte (bit 0 tagged, bit 1 long message length,
 * bit 2 a TO near 2^64), MULPDU (u16), header length (u8 % 32, or a negative one), message length,
 * base TO. Messages needing over 200,000 segments are not walked (only reset is checked).
 */
class DdpSegmenterFuzzTest {
    private static final long MAX_WALK = 200_000;
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /**
     * Properties: reset refuses exactly the documented cases (no payload room, negative length, TO
     * + length past 2^64 - 1 for tagged, more than 2^32 bytes for untagged); the segments cover
     * the message exactly and in order, each carries at most mulpdu - headerLength bytes and at
     * least one (except the single empty segment of an empty message), L only on the last, the
     * offset is base TO + bytes before (tagged) or the bytes before (untagged), their number is
     * segmentCount, and next() stays false after the end.
     */
    @FuzzTest(maxDuration = "60s")
    void segment(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int flags = in.u8();
        boolean tagged = (flags & 1) != 0;
        int mulpdu = in.u16();
        int hl = in.u8();
        int headerLength = (hl & 0x80) != 0 ? -(hl & 3) : hl % 32;
        long messageLength = (flags & 2) != 0 ? in.u64() >> (in.u8() % 64) : in.u32() % 70_000;
        long base = (flags & 4) != 0 ? -1L - in.u32() : in.u64();

        boolean refuse = headerLength < 0 || mulpdu - headerLength <= 0 || messageLength < 0
                || (tagged && new BigInteger(Long.toUnsignedString(base)).add(BigInteger.valueOf(messageLength))
                        .compareTo(TWO_64.subtract(BigInteger.ONE)) > 0)
                || (!tagged && messageLength > (1L << 32));
        DdpSegmenter s = new DdpSegmenter();
        try {
            if (tagged) {
                s.resetTagged(messageLength, mulpdu, headerLength, base);
            } else {
                s.resetUntagged(messageLength, mulpdu, headerLength);
            }
        } catch (IllegalArgumentException e) {
            assertTrue(refuse, () -> "refused a valid message: " + e.getMessage());
            return;
        }
        assertFalse(refuse, "accepted an invalid message");
        int max = mulpdu - headerLength;
        assertEquals(max, s.maxPayload());
        long count = DdpSegmenter.segmentCount(messageLength, max);
        if (count > MAX_WALK) {
            return;
        }
        long covered = 0;
        long segments = 0;
        while (s.next()) {
            segments++;
            if (segments > count) {
                fail("more segments than segmentCount " + count);
            }
            assertEquals(covered, s.messageOffset(), "contiguous");
            assertEquals(tagged ? base + covered : covered, s.offset());
            assertTrue(s.length() <= max, "segment over the max payload");
            assertTrue(s.length() > 0 || messageLength == 0, "empty segment in a non-empty message");
            covered += s.length();
            assertEquals(covered == messageLength, s.last(), "L only on the last");
            assertEquals(tagged, s.tagged());
        }
        assertEquals(messageLength, covered, "segments cover the message");
        assertEquals(count, segments);
        assertFalse(s.next());
        assertFalse(s.next());
    }
}
