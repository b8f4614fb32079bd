package io.jrnic.examples.srp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.QpState;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SrpExampleTest {
    private static final int QD = 8;
    private static final long BLOCKS = 256;
    private static final InetSocketAddress LO = new InetSocketAddress("127.0.0.1", 0);

    @Test
    void writesAndReadsLandInTheFileWithEveryCommandsStagInvalidated(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("dev.img");
        int[] gens = new int[(int) BLOCKS];
        try (BlockDevice device = BlockDevice.open(file, BLOCKS);
                RdmaDevice td = Rdma.open("soft");
                RdmaDevice id = Rdma.open("soft");
                SrpTarget target = SrpTarget.start(td, LO, device, 4, 64 * 1024);
                SrpInitiator ini = SrpInitiator.connect(id, target.address(), QD, 1 << 20)) {
            assertEquals(4, ini.requestLimit(), "the target's request limit wins over the initiator's 8");
            assertEquals(64 * 1024, ini.maxTransfer());
            assertEquals(BLOCKS, ini.blocks());

            // 8 WRITEs of 2 blocks each in flight at once (credits: 4 at a time), distinct LBAs.
            for (int slot = 0; slot < QD; slot++) {
                long lba = slot * 16L + 3;
                gens[(int) lba] = slot + 1;
                gens[(int) lba + 1] = slot + 101;
                BlockPattern.fill(ini.buffer(slot), lba, 2, gens);
                ini.submit(slot, SrpWire.Op.WRITE, lba, 2);
            }
            Map<Integer, Integer> stags = new HashMap<>();
            for (int i = 0; i < QD; i++) {
                BlockInitiator.Done d = ini.take(10, TimeUnit.SECONDS);
                assertTrue(d.ok(), d.toString());
                assertTrue(d.invalidated(), "response is a Send with Invalidate of the command's STag");
                assertFalse(ini.region(d.slot()).isValid(), "the command's region is dead after the response");
                stags.put(d.slot(), d.stag());
            }
            // The file itself holds the data.
            byte[] onDisk = Files.readAllBytes(file);
            for (int slot = 0; slot < QD; slot++) {
                long lba = slot * 16L + 3;
                ByteBuffer expect = ByteBuffer.allocate(2 * SrpWire.BLOCK);
                BlockPattern.fill(expect, lba, 2, gens);
                byte[] got = new byte[2 * SrpWire.BLOCK];
                System.arraycopy(onDisk, (int) lba * SrpWire.BLOCK, got, 0, got.length);
                assertArrayEquals(expect.array(), got, "blocks at lba " + lba);
            }

            // READs back, in flight together; each registers again with a new key.
            for (int slot = 0; slot < QD; slot++) {
                ini.buffer(slot).put(0, (byte) 0x55).put(SrpWire.BLOCK, (byte) 0x55);
                ini.submit(slot, SrpWire.Op.READ, slot * 16L + 3, 2);
            }
            for (int i = 0; i < QD; i++) {
                BlockInitiator.Done d = ini.take(10, TimeUnit.SECONDS);
                assertTrue(d.ok() && d.invalidated(), d.toString());
                assertTrue((d.stag() & 0xFF) != (stags.get(d.slot()) & 0xFF), "fresh key per registration");
                assertEquals(-1, BlockPattern.firstMismatch(ini.buffer(d.slot()), d.slot() * 16L + 3, 2, gens));
            }

            // Out of range and oversize: refused with a status, and still invalidated.
            ini.submit(0, SrpWire.Op.READ, BLOCKS - 1, 2);
            BlockInitiator.Done range = ini.take(10, TimeUnit.SECONDS);
            assertEquals(SrpWire.OUT_OF_RANGE, range.status());
            assertTrue(range.invalidated());
            ini.submit(1, SrpWire.Op.WRITE, 0, 32); // 128 KiB > the granted 64 KiB
            BlockInitiator.Done big = ini.take(10, TimeUnit.SECONDS);
            assertEquals(SrpWire.BAD_DESCRIPTOR, big.status());
            assertTrue(big.invalidated());

            // The dead STag on the wire: a target RDMA WRITE to it breaks the connection
            // (the initiator's RNIC answers with a Terminate) and places nothing.
            ByteBuffer slot0 = ini.buffer(0);
            slot0.put(0, (byte) 0x7E);
            target.probeWrite(range.stag(), 0, 16);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ini.queuePair().state() != QpState.ERROR && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(QpState.ERROR, ini.queuePair().state());
            assertEquals((byte) 0x7E, slot0.get(0), "nothing placed through the invalidated STag");
        }
    }

    @Test
    void aLoginWithoutTheProtocolsPrivateDataIsRejected(@TempDir Path dir) throws Exception {
        try (BlockDevice device = BlockDevice.open(dir.resolve("d"), BLOCKS);
                RdmaDevice td = Rdma.open("soft");
                RdmaDevice id = Rdma.open("soft");
                SrpTarget target = SrpTarget.start(td, LO, device, 4, 64 * 1024)) {
            io.jrnic.verbs.QueuePair qp = id.allocatePd().createQp(io.jrnic.verbs.QpInit.rc(id.createCq(4)));
            var f = id.connectionManager().connect(target.address(), qp,
                    io.jrnic.verbs.ConnectOptions.defaults().privateData("hello, this is not a login".getBytes(StandardCharsets.US_ASCII)));
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> f.get(10, TimeUnit.SECONDS));
            var failed = assertInstanceOf(io.jrnic.verbs.ConnectionFailedException.class, e.getCause());
            assertEquals(io.jrnic.verbs.CmEventType.REJECTED, failed.type());
            assertEquals("login: bad magic", new String(failed.privateData(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void benchWithTinySettingsVerifiesEveryBlockOnBothTransports(@TempDir Path dir) throws Exception {
        StringWriter text = new StringWriter();
        int rc = SrpBench.run(new SrpBench.Settings(new int[] {1, 3}, 0.05, 1, 512, dir), new PrintWriter(text, true));
        String out = text.toString();
        assertEquals(0, rc, out);
        for (String w : new String[] {"randread_4k", "randwrite_4k", "seqread_1m", "seqwrite_1m"}) {
            assertTrue(out.contains(w), out);
        }
        assertTrue(out.matches("(?s).*verified [1-9][0-9]* blocks read back, 0 errors.*"), out);
    }
}
