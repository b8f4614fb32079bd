package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * Where the payload of the FPDU in flight goes when the {@link FpduListener} takes it before its CRC
 * ({@link FpduListener#onFpduHead}): ULPDU octets {@code [ulpduOffset, ULPDU_Length)} land at
 * {@code [index, index + ULPDU_Length - ulpduOffset)} of {@code memory}, an NIO view whose absolute index is the
 * target's (its position and limit are the decoder's to move; the listener keeps it for later FPDUs if it likes).
 * Markers must be off: the payload is then one contiguous run of stream octets.
 *
 * <p>The decoder copies into the target what it already holds or is fed as a chunk ({@link FpduDecoder#feed}), and
 * takes octets its caller read from the stream straight into the target ({@link FpduDecoder#placed}); either way
 * the CRC runs over the octets where they lie. Reused by one decoder; not thread safe.
 */
public final class PayloadTarget {
    private int ulpduOffset = -1;
    private ByteBuffer memory;
    private int next;
    private int left;
    /** The target was withdrawn ({@link #drop}): the payload's octets are CRC'd where they are fed, not stored. */
    private boolean dropped;

    /** The listener's answer: ULPDU octet {@code ulpduOffset} goes to absolute index {@code index} of {@code memory}. */
    public void set(int ulpduOffset, ByteBuffer memory, int index) {
        if (ulpduOffset < 0 || index < 0 || memory == null) {
            throw new IllegalArgumentException("ulpduOffset " + ulpduOffset + ", index " + index);
        }
        this.ulpduOffset = ulpduOffset;
        this.memory = memory;
        this.next = index;
    }

    int ulpduOffset() {
        return ulpduOffset;
    }

    /** Starts the payload run of {@code length} octets (the answer was checked against the view's capacity). */
    boolean start(int length) {
        if (memory == null || next + (long) length > memory.capacity()) {
            return false;
        }
        left = length;
        return true;
    }

    /** Octets of the payload still to arrive. */
    int left() {
        return left;
    }

    /** Absolute index in the target of the next payload octet. */
    int next() {
        return next;
    }

    /** Copies {@code n} octets at {@code index} of {@code src} to the target and runs the CRC (null: off) over them. */
    void copy(ByteBuf src, int index, int n, MpaCrc crc) {
        if (dropped) {
            if (crc != null) {
                crc.update(src, index, n);
            }
            next += n;
            left -= n;
            return;
        }
        memory.limit(next + n).position(next);
        src.getBytes(index, memory);
        took(n, crc);
    }

    /** {@code n} octets were read into the target at {@link #next()}: runs the CRC (null: off) over them there. */
    void took(int n, MpaCrc crc) {
        if (crc != null) {
            memory.limit(next + n).position(next);
            crc.update(memory);
        }
        next += n;
        left -= n;
    }

    /** The target may no longer be written: the rest of the payload is only CRC'd as it is fed. */
    void drop() {
        dropped = true;
    }

    boolean dropped() {
        return dropped;
    }

    /** The FPDU ended (or the decoder stopped): forgets the answer. */
    void clear() {
        ulpduOffset = -1;
        memory = null;
        left = 0;
        dropped = false;
    }
}
