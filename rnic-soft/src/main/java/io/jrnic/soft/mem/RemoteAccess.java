package io.jrnic.soft.mem;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.TaggedPlacement;
import io.jrnic.mpa.IwarpError;
import io.jrnic.rdmap.RdmapError;

/**
 * A peer's access to local memory, checked in the reference's order (section 5; RFC 5040 section
 * 6.4, RFC 5041 section 5.3): STag valid and not invalidated, key matches, same protection domain,
 * access right, then base and bounds ({@link TaggedPlacement#checkBounds}: start, TO wrap, end).
 * The error names the layer that owns the check: a tagged sink (RDMA Write, Read Response) gets DDP tagged-buffer errors (RFC 5041
 * section 7.2) except the access right, which is RDMAP's (remote protection 0x02); the source of a
 * Read Request and the target of an Atomic get RDMAP remote protection errors (RFC 5040 section 7.2).
 * One per stream; event-loop confined.
 */
public final class RemoteAccess {
    private final long pdId;
    private final TaggedPlacement placement;
    private SoftRegion region;
    private long regionOffset;
    /** The table's lookups, with the slot of the last STag found kept ({@link StagMemo}). */
    private final StagMemo stags;

    public RemoteAccess(MemoryTable table, long pdId) {
        this.pdId = pdId;
        this.stags = new StagMemo(table);
        this.placement = new TaggedPlacement(table, pdId);
    }

    /**
     * A tagged segment of an RDMA Write ({@code requiredAccess} REMOTE_WRITE) or a Read Response into
     * a local sink (LOCAL_WRITE). Zero-length segments are not validated (RFC 6581 RTR Write, siw).
     *
     * @return null when the payload may go to {@link #regionOffset()} of {@link #region()}
     */
    public IwarpError checkTaggedSink(int control, int stag, long to, int length, int requiredAccess) {
        region = null;
        regionOffset = 0;
        IwarpError e;
        if (length > 0 && DdpControl.ddpVersion(control) == DdpControl.DDP_VERSION) {
            SoftRegion r = stags.lookup(stag);
            if (r != null && r.valid() && r.associatedWith(pdId) && !AccessFlags.has(r.access(), requiredAccess)) {
                return RdmapError.ACCESS_RIGHTS;
            }
            e = placement.check(control, r, to, length);
        } else {
            e = placement.check(control, stag, to, length);
        }
        if (e == null) {
            region = (SoftRegion) placement.region();
            regionOffset = placement.regionOffset();
        }
        return e;
    }

    /** The source of an RDMA Read Request (REMOTE_READ) or the target of an Atomic (REMOTE_ATOMIC). */
    public IwarpError checkSource(int stag, long to, long length, int requiredAccess) {
        region = null;
        regionOffset = 0;
        SoftRegion r = stags.lookup(stag);
        if (r == null || !r.valid()) {
            return RdmapError.INVALID_STAG;
        }
        if (!r.associatedWith(pdId)) {
            return RdmapError.STAG_NOT_ASSOCIATED;
        }
        if (!AccessFlags.has(r.access(), requiredAccess)) {
            return RdmapError.ACCESS_RIGHTS;
        }
        DdpError bounds = TaggedPlacement.checkBounds(r.baseTaggedOffset(), r.length(), to, length);
        if (bounds != null) {
            return bounds == DdpError.TO_WRAP ? RdmapError.TO_WRAP : RdmapError.BASE_OR_BOUNDS;
        }
        region = r;
        regionOffset = to - r.baseTaggedOffset();
        return null;
    }

    /** Region of the last accepted access (null for an unvalidated zero-length segment). */
    public SoftRegion region() {
        return region;
    }

    /** Byte offset in {@link #region()} of the last accepted access. */
    public long regionOffset() {
        return regionOffset;
    }

    public long pdId() {
        return pdId;
    }
}
