package io.jrnic.fileregion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class MappedFileRegionTest {
    private static final int SIZE = 256 * 1024;

    @Test
    void rdmaWriteLandsInTheFileAndRdmaReadReadsIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("region.bin");
        byte[] pattern = new byte[SIZE];
        new Random(7).nextBytes(pattern);
        byte[] before = new byte[4096];
        new Random(8).nextBytes(before);
        try (RdmaDevice da = Rdma.open("soft"); RdmaDevice db = Rdma.open("soft");
                MappedFileRegion region = MappedFileRegion.map(file, SIZE)) {
            region.memory(SIZE - 4096, 4096).view().setBytes(0, before);
            ProtectionDomain pa = da.allocatePd();
            ProtectionDomain pb = db.allocatePd();
            CompletionQueue cqa = da.createCq(16);
            CompletionQueue cqb = db.createCq(16);
            QueuePair qa = pa.createQp(QpInit.rc(cqa));
            QueuePair qb = pb.createQp(QpInit.rc(cqb));
            MemoryRegion fileMr = region.register(pb, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            Listener l = db.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(qb, AcceptOptions.defaults()));
            da.connectionManager().connect(l.localAddress(), qa,
                    ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE)).get(10, TimeUnit.SECONDS);

            // RDMA WRITE the pattern over the first SIZE-4096 bytes of the file-backed region.
            MemoryRegion src = pa.register(pattern, Access.LOCAL_WRITE);
            qa.postSend(SendWr.rdmaWrite().id(1).local(src.sge(0, SIZE - 4096)).remote(fileMr.advertise(), 0).signaled());
            assertEquals(CompletionStatus.SUCCESS, awaitOne(cqa).status());
            // RDMA READ the last 4 KiB (written into the mapping before, locally) back to A.
            byte[] sink = new byte[4096];
            MemoryRegion sinkMr = pa.register(sink, Access.LOCAL_WRITE);
            qa.postSend(SendWr.rdmaRead().id(2).local(sinkMr.sge()).remote(fileMr.advertise(), SIZE - 4096).signaled());
            assertEquals(CompletionStatus.SUCCESS, awaitOne(cqa).status());
            assertArrayEquals(before, sink);
            region.force();
        }
        // Content verified through the file itself, not through the mapping.
        byte[] onDisk = Files.readAllBytes(file);
        assertEquals(SIZE, onDisk.length);
        assertArrayEquals(Arrays.copyOf(pattern, SIZE - 4096), Arrays.copyOf(onDisk, SIZE - 4096));
        assertArrayEquals(before, Arrays.copyOfRange(onDisk, SIZE - 4096, SIZE));
    }

    private static Completion awaitOne(CompletionQueue cq) throws InterruptedException {
        Completion[] one = Completion.array(1);
        while (cq.poll(one) == 0) {
            Thread.sleep(1);
        }
        return one[0].snapshot();
    }
}
