package io.jrnic.soft.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.netty.buffer.Unpooled;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * RFC 5042 section 5.1: a peer must not reach memory by guessing STags. The table's STags are a secret
 * permutation of its slots with a random key per registration; these tests play the guessing peer against
 * the table and the remote access checks (the same checks the Receiver runs for every tagged segment and
 * Read Request). Seeded, so each run probes the same STags.
 */
class StagGuessingTest {
    static final int RW = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    static final int WRITE_CONTROL = DdpControl.compose(true, true, 0x40);

    private static SecureRandom seeded(long seed) throws NoSuchAlgorithmException {
        SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
        r.setSeed(seed); // before first use: deterministic
        return r;
    }

    private static MemoryTable tableWith(int regions, SoftRegion[] out, long seed) throws NoSuchAlgorithmException {
        MemoryTable t = new MemoryTable(4096, seeded(seed));
        for (int i = 0; i < regions; i++) {
            out[i] = t.register(Unpooled.wrappedBuffer(new byte[64]), 0, RW, 1, MemoryTable.RANDOM_KEY);
        }
        return t;
    }

    @Test
    void theIndexPermutationIsABijectionOnTwentyFourBits() throws Exception {
        StagIndexPermutation p = new StagIndexPermutation(seeded(1));
        boolean[] seen = new boolean[1 << 24];
        for (int slot = 0; slot < 1 << 24; slot++) {
            int index = p.index(slot);
            assertFalse(seen[index], "two slots share an index");
            seen[index] = true;
            assertEquals(slot, p.slot(index));
        }
    }

    @Test
    void registrationsDoNotGiveSequentialStags() throws Exception {
        SoftRegion[] r = new SoftRegion[256];
        tableWith(r.length, r, 2);
        int adjacent = 0;
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i < r.length; i++) {
            keys.add(r[i].stag() & 0xFF);
            if (i > 0 && Math.abs(r[i].index() - r[i - 1].index()) < 256) {
                adjacent++;
            }
        }
        assertTrue(adjacent <= 2, adjacent + " consecutive registrations with indices closer than 256");
        assertTrue(keys.size() >= 128, "random keys: only " + keys.size() + " distinct among 256 registrations");
    }

    @Test
    void aPeerThatKnowsOneStagCannotReachTheOthersByItsNeighbours() throws Exception {
        SoftRegion[] r = new SoftRegion[64];
        MemoryTable t = tableWith(r.length, r, 3);
        RemoteAccess access = new RemoteAccess(t, 1);
        int known = r[0].stag();
        long probes = 0;
        int accepted = 0;
        for (int d = -4096; d <= 4096; d++) {
            int index = (known >>> 8) + d;
            if (d == 0 || index <= 0 || index > 0xFF_FFFF) {
                continue;
            }
            for (int key = 0; key < 256; key++) {
                probes++;
                if (access.checkTaggedSink(WRITE_CONTROL, (index << 8) | key, 0, 1, AccessFlags.REMOTE_WRITE) == null) {
                    accepted++;
                }
            }
        }
        assertEquals(8192L * 256, probes);
        assertEquals(0, accepted, "STags reached from a known neighbour");
    }

    @Test
    void aMillionRandomStagsReachNothing() throws Exception {
        SoftRegion[] r = new SoftRegion[64];
        MemoryTable t = tableWith(r.length, r, 4);
        RemoteAccess access = new RemoteAccess(t, 1);
        SplittableRandom guess = new SplittableRandom(5);
        int accepted = 0;
        for (int i = 0; i < 1_000_000; i++) {
            int stag = guess.nextInt();
            boolean sink = access.checkTaggedSink(WRITE_CONTROL, stag, 0, 1, AccessFlags.REMOTE_WRITE) == null;
            boolean source = access.checkSource(stag, 0, 1, AccessFlags.REMOTE_READ) == null;
            if (sink || source) {
                accepted++;
            }
        }
        assertEquals(0, accepted);
    }

    @Test
    void aReRegisteredSlotGetsAFreshKeySoThePreviousStagMisses() throws Exception {
        MemoryTable t = new MemoryTable(1, seeded(6));
        Set<Integer> stags = new HashSet<>();
        int previous = 0;
        for (int i = 0; i < 200; i++) {
            SoftRegion r = t.register(Unpooled.wrappedBuffer(new byte[8]), 0, RW, 1, MemoryTable.RANDOM_KEY);
            if (i > 0) {
                SoftRegion found = t.lookup(previous);
                assertTrue(found != null && !found.valid(), "the previous registration's STag reached the new one");
            }
            stags.add(r.stag());
            previous = r.stag();
            r.close();
        }
        // 200 draws among 255 keys give about 140 distinct values; a constant key would give one
        assertTrue(stags.size() >= 110, "only " + stags.size() + " distinct STags over 200 registrations of one slot");
    }

    @Test
    void indexZeroNeverNamesMemoryWhateverThePermutation() throws Exception {
        for (long seed = 0; seed < 64; seed++) {
            MemoryTable t = new MemoryTable(2, seeded(seed));
            SoftRegion a = t.register(Unpooled.wrappedBuffer(new byte[8]), 0, RW, 1, 0);
            SoftRegion b = t.register(Unpooled.wrappedBuffer(new byte[8]), 0, RW, 1, 0);
            assertTrue(a.index() != 0 && b.index() != 0);
            for (int stag = 0; stag <= 0xFF; stag++) {
                assertEquals(null, t.lookup(stag), "STag 0x" + Integer.toHexString(stag));
            }
            assertNotNull(t.lookup(a.stag()));
        }
    }
}
