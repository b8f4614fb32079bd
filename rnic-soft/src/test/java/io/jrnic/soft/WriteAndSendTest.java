package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WriteAndSendTest {

    @Test
    void rdmaWriteThenSendOverLoopbackPlacesEveryByte() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] src = new byte[100_000];
            new Random(1).nextBytes(src);
            byte[] dst = new byte[100_000];
            byte[] note = new byte[16];
            MemoryRegion srcMr = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion dstMr = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion noteMr = p.b.pd.register(note, Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(7, noteMr.sge(0, 16)));
            RemoteBuffer rb = dstMr.advertise();
            p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(srcMr.sge()).remote(rb, 0).signaled());
            p.a.qp.postSend(SendWr.send().id(2).local(srcMr.sge(0, 16)).signaled());
            Completion w = p.a.awaitOne();
            Completion s = p.a.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, w.status(), w.toString());
            assertEquals(1, w.id());
            assertEquals(100_000, w.byteLength());
            assertEquals(2, s.id());
            Completion r = p.b.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, r.status(), r.toString());
            assertEquals(CompletionOpcode.RECV, r.opcode());
            assertEquals(16, r.byteLength());
            assertEquals(7, r.id());
            assertArrayEquals(src, dst);
            assertEquals(QpState.RTS, p.a.qp.state());
            assertEquals(QpState.RTS, p.b.qp.state());
        }
    }
}
