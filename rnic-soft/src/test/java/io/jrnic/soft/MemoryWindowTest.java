package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.MemoryWindow;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.Sge;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Memory windows narrow a region's range and rights for a peer (RFC 5040 section 2; reference section 5). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MemoryWindowTest {

    @Test
    void type2WindowGrantsWritesInsideItsRangeOnly() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] mem = new byte[1024];
            MemoryRegion region = p.b.pd.register(mem, Access.LOCAL_WRITE, Access.MW_BIND);
            MemoryWindow mw = p.b.pd.allocateMw(MemoryWindow.Type.TYPE_2);
            Sge range = region.sge(256, 128);
            p.b.qp.postSend(SendWr.bindWindow(mw, range, 0x11, Access.REMOTE_WRITE).id(1).signaled());
            Completion bound = p.b.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, bound.status(), bound.toString());
            assertTrue(mw.isBound());
            RemoteBuffer rb = mw.remoteBuffer(range, 0x11);
            byte[] src = new byte[16];
            Arrays.fill(src, (byte) 0x77);
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.rdmaWrite().id(2).local(s.sge()).remote(rb, 8).signaled());
            assertEquals(CompletionStatus.SUCCESS, p.a.awaitOne().status());
            SoftPair.eventually(() -> mem[256 + 8 + 15] == 0x77);
            assertArrayEquals(src, Arrays.copyOfRange(mem, 264, 280));
            // 16 bytes at window offset 120 pass its end (128): DDP base or bounds, region untouched beyond
            p.a.qp.postSend(SendWr.rdmaWrite().id(3).local(s.sge()).remote(rb, 120).signaled(),
                    SendWr.rdmaRead().id(4).local(s.sge(0, 4)).remote(rb, 0).signaled());
            assertEquals(CompletionStatus.SUCCESS, p.a.awaitOne().status());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, p.a.awaitOne().status());
            TerminateTest.assertTerminate(p, 1, 1, 0x01);
            assertEquals(0, mem[256 + 120]);
        }
    }

    @Test
    void type1WindowWithoutRemoteReadRefusesReads() throws Exception {
        try (SoftPair p = new SoftPair()) {
            MemoryRegion region = p.b.pd.register(new byte[256], Access.LOCAL_WRITE, Access.MW_BIND,
                    Access.REMOTE_READ);
            MemoryWindow mw = p.b.pd.allocateMw(MemoryWindow.Type.TYPE_1);
            RemoteBuffer rb = mw.bind(p.b.qp, region.sge(0, 64), 1, true, Access.REMOTE_WRITE);
            assertEquals(CompletionStatus.SUCCESS, p.b.awaitOne().status());
            MemoryRegion sink = p.a.pd.register(new byte[64], Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.rdmaRead().id(5).local(sink.sge(0, 8)).remote(rb, 0).signaled());
            Completion r = p.a.awaitOne();
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, r.status());
            assertEquals(new io.jrnic.verbs.TerminateInfo(0, 1, 0x02, true), r.terminate());
        }
    }
}
