package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaSetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * MpaSetupFrame.decode (RFC 5044 section 7.1, RFC 6581 section 5) on any bytes, both kinds.
 * Input: control byte (bit 0 kind, bits 1..3 the PD_Length cap, bits 4..7 junk bytes before the
 * reader index), then the frame bytes.
 */
class MpaSetupFrameFuzzTest {
    static final int[] CAPS = {MpaSetupFrame.MAX_PRIVATE_DATA, MpaSetupFrame.SIW_MAX_PRIVATE_DATA, 0, 4, 65535};
    private static final Set<MpaFailure.Reason> DECODE_REASONS = EnumSet.of(MpaFailure.Reason.INVALID_KEY,
            MpaFailure.Reason.INVALID_REVISION, MpaFailure.Reason.PRIVATE_DATA_TOO_LONG,
            MpaFailure.Reason.INVALID_LENGTH);

    /**
     * Properties: the outcome is a frame, null or MpaException(INVALID_SETUP_FRAME, one of the four
     * decode reasons); null and the exception consume nothing; a frame consumes exactly its
     * encoded length and re-encodes to the very bytes consumed; every shorter prefix of a valid
     * frame is null (incomplete), never an error; the bytes before the reader index are never read.
     */
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int ctrl = in.u8();
        MpaSetupFrame.Kind kind = (ctrl & 1) == 0 ? MpaSetupFrame.Kind.REQUEST : MpaSetupFrame.Kind.REPLY;
        int cap = CAPS[((ctrl >>> 1) & 7) % CAPS.length];
        int junk = ctrl >>> 4;
        byte[] frame = in.rest();

        Result whole = decode(frame, junk, kind, cap);
        if (whole.frame != null) {
            int length = whole.frame.encodedLength();
            assertEquals(length, whole.consumed, "consumed");
            assertTrue(length <= MpaSetupFrame.HEADER_LENGTH + cap, "PD_Length within the cap");
            ByteBuf re = Unpooled.buffer(length);
            try {
                whole.frame.encode(re);
                byte[] out = new byte[re.readableBytes()];
                re.readBytes(out);
                assertArrayEquals(Arrays.copyOf(frame, length), out, "re-encoding gives the bytes consumed");
            } finally {
                re.release();
            }
            int step = Math.max(1, length / 600); // all prefixes of ordinary frames, a sample of huge ones
            for (int p = 0; p < length; p += p < 2 * MpaSetupFrame.HEADER_LENGTH ? 1 : step) {
                Result prefix = decode(Arrays.copyOf(frame, p), junk, kind, cap);
                assertNull(prefix.error, () -> "prefix of a valid frame failed: " + prefix.error);
                assertNull(prefix.frame, "prefix of a valid frame decoded");
            }
        } else if (whole.error != null) {
            assertEquals(LlpError.INVALID_SETUP_FRAME, whole.error.error());
            assertTrue(DECODE_REASONS.contains(whole.error.reason()), whole.error.reason()::toString);
        }
    }

    record Result(MpaSetupFrame frame, MpaException error, int consumed) {
    }

    static Result decode(byte[] bytes, int junk, MpaSetupFrame.Kind kind, int cap) {
        ByteBuf buf = Chunks.guarded(bytes, junk, 0);
        try {
            int before = buf.readerIndex();
            MpaSetupFrame f;
            try {
                f = MpaSetupFrame.decode(buf, kind, cap);
            } catch (MpaException e) {
                assertEquals(before, buf.readerIndex(), "an error consumes nothing");
                return new Result(null, e, 0);
            }
            if (f == null) {
                assertEquals(before, buf.readerIndex(), "incomplete consumes nothing");
            }
            return new Result(f, null, buf.readerIndex() - before);
        } finally {
            buf.release();
        }
    }
}
