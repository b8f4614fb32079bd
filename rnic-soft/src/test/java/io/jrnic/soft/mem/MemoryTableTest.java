package io.jrnic.soft.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.rdmap.RdmapError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class MemoryTableTest {
    static final int RW = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    static final int WRITE_CONTROL = DdpControl.compose(true, true, 0x40);

    private static ByteBuf mem(int n) {
        return Unpooled.wrappedBuffer(new byte[n]);
    }

    @Test
    void stagIsIndexShiftedOverTheConsumersKey() {
        MemoryTable t = new MemoryTable(8);
        SoftRegion r = t.register(mem(16), 0, RW, 1, 0xAB);
        assertEquals(0xAB, r.stag() & 0xFF);
        assertEquals(r.index(), r.stag() >>> 8);
        assertTrue(r.index() >= 1, "index 0 is never handed out");
        assertSame(r, t.lookup(r.stag()));
    }

    @Test
    void wrongKeyAndFreeIndexLookUpAsInvalid() {
        MemoryTable t = new MemoryTable(8);
        SoftRegion r = t.register(mem(16), 0, RW, 1, 1);
        SoftRegion wrongKey = t.lookup(r.stag() ^ 0x01);
        assertNotNull(wrongKey);
        assertFalse(wrongKey.valid());
        assertNull(t.lookup((r.index() + 1) << 8));
        assertNull(t.lookup(0x0000_0001), "siw's RTR STag 1 names nothing");
    }

    @Test
    void closedIndexIsReusedAndTheOldStagStopsWorking() {
        MemoryTable t = new MemoryTable(1);
        SoftRegion r = t.register(mem(16), 0, RW, 1, 7);
        int old = r.stag();
        assertThrows(IllegalStateException.class, () -> t.register(mem(16), 0, RW, 1, 8));
        r.close();
        assertEquals(0, t.size());
        assertNull(t.lookup(old));
        SoftRegion again = t.register(mem(16), 0, RW, 1, 8);
        assertEquals(r.index(), again.index());
        assertNotEquals(old, again.stag());
        assertFalse(t.lookup(old).valid(), "the stale key does not match the new entry");
    }

    @Test
    void sinkChecksFollowTheReferenceOrder() {
        MemoryTable t = new MemoryTable(8);
        SoftRegion r = t.register(mem(100), 0x1000, RW, 1, 0);
        SoftRegion ro = t.register(mem(100), 0, AccessFlags.REMOTE_READ, 1, 0);
        SoftRegion other = t.register(mem(100), 0, RW, 2, 0);
        RemoteAccess a = new RemoteAccess(t, 1);
        int w = AccessFlags.REMOTE_WRITE;
        assertNull(a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0x1000 + 10, 90, w));
        assertEquals(10, a.regionOffset());
        assertSame(r, a.region());
        assertEquals(DdpError.INVALID_STAG, a.checkTaggedSink(WRITE_CONTROL, r.stag() + 1, 0x1000, 1, w));
        assertEquals(DdpError.STAG_NOT_ASSOCIATED, a.checkTaggedSink(WRITE_CONTROL, other.stag(), 0, 1, w));
        assertEquals(RdmapError.ACCESS_RIGHTS, a.checkTaggedSink(WRITE_CONTROL, ro.stag(), 1000, 1, w),
                "access right is checked before bounds");
        assertEquals(DdpError.BASE_OR_BOUNDS, a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0x1000 + 10, 91, w));
        assertEquals(DdpError.BASE_OR_BOUNDS, a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0xFFF, 1, w));
        assertEquals(DdpError.BASE_OR_BOUNDS, a.checkTaggedSink(WRITE_CONTROL, r.stag(), -1L, 2, w),
                "a start outside the region is base or bounds even when TO + length wraps");
        assertNull(a.checkTaggedSink(WRITE_CONTROL, 0x12345678, 0, 0, w), "zero-length segments are not validated");
        r.invalidate();
        assertEquals(DdpError.INVALID_STAG, a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0x1000, 1, w));
    }

    /** RemoteAccess keeps the slot of the STag it found last: it must answer as the table does after every change. */
    @Test
    void aSinkFoundBeforeIsGoneOnceClosedAndTheSlotsNextRegistrationIsAnotherEntry() {
        MemoryTable t = new MemoryTable(1);
        SoftRegion r = t.register(mem(100), 0, RW, 1, 7);
        RemoteAccess a = new RemoteAccess(t, 1);
        int w = AccessFlags.REMOTE_WRITE;
        assertNull(a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0, 100, w));
        r.close();
        assertEquals(DdpError.INVALID_STAG, a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0, 1, w));
        // same slot, same consumer key: the same STag names a new, smaller entry without REMOTE_WRITE
        SoftRegion again = t.register(mem(10), 0, AccessFlags.REMOTE_READ, 1, 7);
        assertEquals(r.stag(), again.stag());
        assertNull(a.checkSource(again.stag(), 0, 10, AccessFlags.REMOTE_READ));
        assertSame(again, a.region());
        assertEquals(RdmapError.ACCESS_RIGHTS, a.checkTaggedSink(WRITE_CONTROL, again.stag(), 0, 1, w));
        assertEquals(RdmapError.BASE_OR_BOUNDS, a.checkSource(again.stag(), 0, 11, AccessFlags.REMOTE_READ));
    }

    @Test
    void aKeyChangedByAFastRegistrationMissesUnderTheOldStag() {
        MemoryTable t = new MemoryTable(8);
        SoftRegion r = t.register(mem(100), 0, RW, 1, 1);
        int old = r.stag();
        RemoteAccess a = new RemoteAccess(t, 1);
        int w = AccessFlags.REMOTE_WRITE;
        assertNull(a.checkTaggedSink(WRITE_CONTROL, old, 0, 100, w));
        r.map(mem(50), 0, 50, 0, RW, 2, null);
        assertEquals(DdpError.INVALID_STAG, a.checkTaggedSink(WRITE_CONTROL, old, 0, 1, w));
        assertNull(a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0, 50, w));
        assertEquals(DdpError.BASE_OR_BOUNDS, a.checkTaggedSink(WRITE_CONTROL, r.stag(), 0, 51, w));
        assertEquals(RdmapError.INVALID_STAG, a.checkSource(old, 0, 1, AccessFlags.REMOTE_READ));
    }

    @Test
    void sourceChecksGiveRdmapRemoteProtectionErrors() {
        MemoryTable t = new MemoryTable(8);
        SoftRegion r = t.register(mem(64), 0, RW, 1, 0);
        SoftRegion wo = t.register(mem(64), 0, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, 1, 0);
        SoftRegion other = t.register(mem(64), 0, RW, 2, 0);
        RemoteAccess a = new RemoteAccess(t, 1);
        int rd = AccessFlags.REMOTE_READ;
        assertNull(a.checkSource(r.stag(), 0, 64, rd));
        assertEquals(RdmapError.INVALID_STAG, a.checkSource(0x7700, 0, 1, rd));
        assertEquals(RdmapError.STAG_NOT_ASSOCIATED, a.checkSource(other.stag(), 0, 1, rd));
        assertEquals(RdmapError.ACCESS_RIGHTS, a.checkSource(wo.stag(), 0, 1, rd));
        assertEquals(RdmapError.BASE_OR_BOUNDS, a.checkSource(r.stag(), -8, 16, rd), "8 below the base, wrapping");
        assertEquals(RdmapError.BASE_OR_BOUNDS, a.checkSource(r.stag(), 1, 64, rd));
    }

    @Test
    void windowIsValidOnlyWhileItsRegionIs() {
        MemoryTable t = new MemoryTable(8);
        SoftRegion r = t.register(mem(64), 0, RW, 1, 0);
        SoftRegion w = t.allocate(SoftRegion.Kind.WINDOW, 1, 3);
        assertFalse(w.valid(), "unbound");
        w.map(r.memory(), 16, 16, 0, AccessFlags.REMOTE_READ, 4, r);
        assertTrue(w.valid());
        assertEquals(4, w.stag() & 0xFF);
        r.invalidate();
        assertFalse(w.valid());
    }
}
