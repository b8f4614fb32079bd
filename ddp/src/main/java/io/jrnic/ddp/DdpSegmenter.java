package io.jrnic.ddp;

/**
 * Splits one DDP message into segments (RFC 5041 section 5.2, Data Source requirements).
 * Each segment carries at most {@code mulpdu - headerLength} payload bytes; only the last has L set;
 * a zero-length message is exactly one (empty, last) segment. For a tagged message the TO of each
 * segment is the message's base TO plus the bytes before it; for an untagged one the MO is the bytes
 * before it. A reusable cursor: {@link #reset}, then {@link #next} until it returns false. No allocation.
 */
public final class DdpSegmenter {
    private static final long U32_MAX = 0xFFFF_FFFFL;

    private long messageLength;
    private int maxPayload;
    private long baseOffset;
    private boolean tagged;
    private long position;
    private int length;
    private boolean started;
    private boolean done;

    /**
     * Starts a tagged message: segments' TO = {@code baseTaggedOffset} + bytes before them.
     *
     * @throws IllegalArgumentException if no payload fits, or TO + length would pass 2^64
     */
    public DdpSegmenter resetTagged(long messageLength, int mulpdu, int headerLength, long baseTaggedOffset) {
        reset(messageLength, mulpdu, headerLength, baseTaggedOffset, true);
        if (Long.compareUnsigned(messageLength, -1L - baseTaggedOffset) > 0) {
            throw new IllegalArgumentException("TO wraps: base TO 0x" + Long.toHexString(baseTaggedOffset)
                    + " + length " + messageLength);
        }
        return this;
    }

    /**
     * Starts an untagged message: segments' MO = bytes before them (MO is 32 bits, RFC 5041 section 4.4).
     *
     * @throws IllegalArgumentException if no payload fits, or the message needs an MO beyond 2^32 - 1
     */
    public DdpSegmenter resetUntagged(long messageLength, int mulpdu, int headerLength) {
        reset(messageLength, mulpdu, headerLength, 0, false);
        if (messageLength > U32_MAX + 1) {
            throw new IllegalArgumentException("untagged message longer than 2^32 bytes: " + messageLength);
        }
        return this;
    }

    private void reset(long messageLength, int mulpdu, int headerLength, long baseOffset, boolean tagged) {
        if (messageLength < 0) {
            throw new IllegalArgumentException("negative message length " + messageLength);
        }
        if (headerLength < 0 || mulpdu - headerLength <= 0) {
            throw new IllegalArgumentException("MULPDU " + mulpdu + " leaves no payload after a "
                    + headerLength + "-byte header");
        }
        this.messageLength = messageLength;
        this.maxPayload = mulpdu - headerLength;
        this.baseOffset = baseOffset;
        this.tagged = tagged;
        this.position = 0;
        this.length = 0;
        this.started = false;
        this.done = false;
    }

    /**
     * Advances to the next segment, which carries at most {@code maxPayload} octets: for an LLP whose MULPDU varies
     * from FPDU to FPDU (MPA with markers sizes each FPDU from its stream position, RFC 5044); false when the
     * message has no more segments.
     *
     * @throws IllegalArgumentException if {@code maxPayload} is not positive
     */
    public boolean next(int maxPayload) {
        if (maxPayload <= 0) {
            throw new IllegalArgumentException("no payload fits a segment: " + maxPayload);
        }
        this.maxPayload = maxPayload;
        return next();
    }

    /** Advances to the next segment; false when the message has no more segments. */
    public boolean next() {
        if (done) {
            return false;
        }
        if (started) {
            position += length;
            if (position >= messageLength) {
                done = true;
                length = 0;
                return false;
            }
        }
        started = true;
        length = (int) Math.min(maxPayload, messageLength - position);
        return true;
    }

    /** Payload bytes of this message before the current segment. */
    public long messageOffset() {
        return position;
    }

    /** The wire offset of the current segment: TO (tagged) or MO (untagged). */
    public long offset() {
        return tagged ? baseOffset + position : position;
    }

    /** Payload bytes in the current segment. */
    public int length() {
        return length;
    }

    /** Payload bytes of this message after the current segment (0 once the last one is current). */
    public long remaining() {
        return Math.max(0, messageLength - position - length);
    }

    /** True if the current segment is the message's last (L = 1). */
    public boolean last() {
        return position + length >= messageLength;
    }

    public boolean tagged() {
        return tagged;
    }

    /** The payload each full segment carries. */
    public int maxPayload() {
        return maxPayload;
    }

    /** Number of segments a message needs (1 for a zero-length message). */
    public static long segmentCount(long messageLength, int maxPayload) {
        if (maxPayload <= 0 || messageLength < 0) {
            throw new IllegalArgumentException("maxPayload " + maxPayload + ", length " + messageLength);
        }
        return messageLength == 0 ? 1 : (messageLength + maxPayload - 1) / maxPayload;
    }
}
