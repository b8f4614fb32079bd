package io.jrnic.rdmap;

import io.jrnic.ddp.TaggedRegion;

/**
 * The Data Sink's rule for the Invalidate STag of a Send with Invalidate or Send with SE and
 * Invalidate (RFC 5040 section 4.3 for the field, section 7.2 for the error): the STag must name a
 * valid region or window of this stream's protection domain; any other STag (unknown, already
 * invalid, of another stream) cannot be invalidated, which is remote protection error 0x09
 * {@link RdmapError#STAG_CANNOT_BE_INVALIDATED}.
 */
public final class RemoteInvalidate {
    private RemoteInvalidate() {
    }

    /**
     * @param region what the STag names, or null when it names nothing
     * @return null when the STag may be invalidated, else the error for the Terminate
     */
    public static RdmapError check(TaggedRegion region, long streamId) {
        return region != null && region.valid() && region.associatedWith(streamId)
                ? null : RdmapError.STAG_CANNOT_BE_INVALIDATED;
    }
}
