package io.jrnic.soft.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The memo answers as the table does after every change to the entry it found last (a QP's posting side, a stream). */
class StagMemoTest {
    private static final int RW = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    @Test
    void aRegionFoundBeforeIsGoneOnceClosedAndTheSlotsNextEntryIsTheNewOne() {
        MemoryTable t = new MemoryTable(1);
        SoftRegion r = t.register(Unpooled.wrappedBuffer(new byte[64]), 0, RW, 1, 7);
        StagMemo m = new StagMemo(t);
        assertSame(r, m.lookup(r.stag()));
        assertSame(r, m.lookup(r.stag()), "the kept slot answers the second time");
        r.close();
        assertNull(m.lookup(r.stag()), "closed: as the table says");
        assertNull(t.lookup(r.stag()));
        SoftRegion again = t.register(Unpooled.wrappedBuffer(new byte[8]), 0, RW, 1, 7); // same slot, same key
        assertEquals(r.stag(), again.stag());
        assertSame(again, m.lookup(again.stag()));
        assertNotSame(r, m.lookup(r.stag()));
    }

    @Test
    void aKeyChangedByAFastRegistrationMissesUnderTheOldStag() {
        MemoryTable t = new MemoryTable(4);
        SoftRegion r = t.register(Unpooled.wrappedBuffer(new byte[64]), 0, RW, 1, 1);
        int old = r.stag();
        StagMemo m = new StagMemo(t);
        assertSame(r, m.lookup(old));
        r.map(Unpooled.wrappedBuffer(new byte[32]), 0, 32, 0, RW, 2, null);
        assertSame(t.lookup(old), m.lookup(old), "the old key: the table's answer (an invalid entry)");
        assertNotSame(r, m.lookup(old));
        assertSame(r, m.lookup(r.stag()));
    }

    @Test
    void anotherStagIsLookedUpInTheTable() {
        MemoryTable t = new MemoryTable(4);
        SoftRegion a = t.register(Unpooled.wrappedBuffer(new byte[8]), 0, RW, 1, 1);
        SoftRegion b = t.register(Unpooled.wrappedBuffer(new byte[8]), 0, RW, 1, 2);
        StagMemo m = new StagMemo(t);
        assertSame(a, m.lookup(a.stag()));
        assertSame(b, m.lookup(b.stag()));
        assertSame(a, m.lookup(a.stag()));
        assertNull(m.lookup(0), "index 0 names no entry");
    }
}
