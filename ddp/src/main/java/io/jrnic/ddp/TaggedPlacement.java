package io.jrnic.ddp;

/**
 * Data Sink checks for a tagged segment (RFC 5041 section 5.3 and section 7.2, tagged buffer errors),
 * in this order: DV = 1 ({@link DdpError#TAGGED_INVALID_VERSION}), STag names a valid region
 * ({@link DdpError#INVALID_STAG}), region associated with this stream
 * ({@link DdpError#STAG_NOT_ASSOCIATED}), then {@link #checkBounds}: TO inside the region
 * ({@link DdpError#BASE_OR_BOUNDS}), TO + length does not pass 2^64 ({@link DdpError#TO_WRAP}),
 * the end inside the region ({@link DdpError#BASE_OR_BOUNDS}).
 * Access rights are RDMAP's to check (RFC 5040 section 7.2, remote protection 0x02) on
 * {@link #region()}.
 *
 * <p>A zero-length segment is not validated by default (no bytes are placed; Linux siw and the
 * MPA v2 zero-length RTR Write with STag 1 rely on this): it is accepted with {@link #region()} null.
 * {@link #validateZeroLength(boolean)} switches the checks on for them. One instance per stream,
 * reusable, not thread-safe; the result of the last {@link #check} is held until the next.
 */
public final class TaggedPlacement {
    private final TaggedBufferLookup lookup;
    private final long streamId;
    private boolean validateZeroLength;
    private TaggedRegion region;
    private long regionOffset;

    public TaggedPlacement(TaggedBufferLookup lookup, long streamId) {
        this.lookup = lookup;
        this.streamId = streamId;
    }

    public TaggedPlacement validateZeroLength(boolean validate) {
        this.validateZeroLength = validate;
        return this;
    }

    /** {@link #check(int, int, long, int)} reading the fields from a header. */
    public DdpError check(TaggedHeader header, int payloadLength) {
        return check(header.control(), header.stag(), header.taggedOffset(), payloadLength);
    }

    /**
     * @return null if the segment may be placed at {@link #regionOffset()} of {@link #region()},
     *         else the DDP error for the Terminate
     * @throws IllegalArgumentException if T is clear (not a tagged segment)
     */
    public DdpError check(int control, int stag, long taggedOffset, int payloadLength) {
        return check(control, stag, null, false, taggedOffset, payloadLength);
    }

    /**
     * {@link #check(int, int, long, int)} for a caller that already looked the segment's STag up ({@code found}:
     * what {@link TaggedBufferLookup#lookup} returned for it, null for none), so that the STag is looked up once
     * per segment.
     */
    public DdpError check(int control, TaggedRegion found, long taggedOffset, int payloadLength) {
        return check(control, 0, found, true, taggedOffset, payloadLength);
    }

    private DdpError check(int control, int stag, TaggedRegion found, boolean lookedUp, long taggedOffset,
            int payloadLength) {
        region = null;
        regionOffset = 0;
        if (!DdpControl.isTagged(control)) {
            throw new IllegalArgumentException("untagged segment given to tagged placement");
        }
        if (payloadLength < 0) {
            throw new IllegalArgumentException("payload length " + payloadLength);
        }
        if (DdpControl.ddpVersion(control) != DdpControl.DDP_VERSION) {
            return DdpError.TAGGED_INVALID_VERSION;
        }
        if (payloadLength == 0 && !validateZeroLength) {
            return null;
        }
        return checkRegion(lookedUp ? found : lookup.lookup(stag), taggedOffset, payloadLength);
    }

    private DdpError checkRegion(TaggedRegion r, long taggedOffset, int payloadLength) {
        if (r == null || !r.valid()) {
            return DdpError.INVALID_STAG;
        }
        if (!r.associatedWith(streamId)) {
            return DdpError.STAG_NOT_ASSOCIATED;
        }
        DdpError bounds = checkBounds(r.baseTaggedOffset(), r.length(), taggedOffset, payloadLength);
        if (bounds != null) {
            return bounds;
        }
        region = r;
        regionOffset = taggedOffset - r.baseTaggedOffset();
        return null;
    }

    /**
     * Base and bounds of [TO, TO + length) against a region [base, base + regionLength) (RFC 5041
     * section 7.2, RFC 5040 section 7.2 for a Read source or Atomic target), all unsigned:
     * a TO below the base or past the end is {@link DdpError#BASE_OR_BOUNDS}; a TO inside the region
     * whose TO + length passes 2^64 is {@link DdpError#TO_WRAP}; an end past the region is
     * BASE_OR_BOUNDS. The start is checked first, so a segment that starts below the base is never
     * reported as a wrap (with a base near 0, "below" is a TO near 2^64).
     *
     * @return null when the range lies inside the region
     */
    public static DdpError checkBounds(long base, long regionLength, long taggedOffset, long length) {
        long offsetInRegion = taggedOffset - base;
        if (Long.compareUnsigned(taggedOffset, base) < 0 || Long.compareUnsigned(offsetInRegion, regionLength) > 0) {
            return DdpError.BASE_OR_BOUNDS;
        }
        if (Long.compareUnsigned(length, -1L - taggedOffset) > 0) {
            return DdpError.TO_WRAP;
        }
        return Long.compareUnsigned(length, regionLength - offsetInRegion) > 0 ? DdpError.BASE_OR_BOUNDS : null;
    }

    /** The region of the last accepted segment (null for an unvalidated zero-length one). */
    public TaggedRegion region() {
        return region;
    }

    /** Byte offset into {@link #region()} where the last accepted segment's payload goes. */
    public long regionOffset() {
        return regionOffset;
    }

    public long streamId() {
        return streamId;
    }
}
