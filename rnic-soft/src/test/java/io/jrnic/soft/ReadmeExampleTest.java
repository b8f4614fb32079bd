package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The API example of the top-level README.md, run as written (keeps the README true). */
class ReadmeExampleTest {

    @Test
    @Timeout(30)
    void readmeExampleWritesIntoThePeersAdvertisedBuffer() throws Exception {
        byte[] pattern = new byte[65536];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i * 7 + 3);
        }
        // passive side: advertises a buffer in its accept private data
        try (RdmaDevice server = Rdma.open("soft")) {
            ProtectionDomain spd = server.allocatePd();
            CompletionQueue scq = server.createCq(64);
            ByteBuffer target = ByteBuffer.allocateDirect(1 << 20);
            MemoryRegion smr = spd.register(target, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            QueuePair sqp = spd.createQp(QpInit.rc(scq).maxSendWr(16).maxRecvWr(16));
            Listener listener = server.connectionManager()
                    .listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            listener.onConnectRequest(req -> req.accept(sqp, AcceptOptions.defaults().privateData(smr.advertise())));

            // active side: the README's lines, with the port of the listener above
            try (RdmaDevice dev = Rdma.open("soft");
                 ProtectionDomain pd = dev.allocatePd();
                 CompletionQueue cq = dev.createCq(1024)) {
                ByteBuffer source = ByteBuffer.allocateDirect(1 << 20);
                source.put(pattern).clear();
                MemoryRegion mr = pd.register(source,
                        Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
                QueuePair qp = pd.createQp(QpInit.rc(cq).maxSendWr(256).maxRecvWr(256));
                Connection conn = dev.connectionManager()
                        .connect(listener.localAddress(), qp, ConnectOptions.defaults())
                        .get(5, TimeUnit.SECONDS);
                RemoteBuffer peer = RemoteBuffer.parse(conn.peerPrivateData());
                qp.postSend(SendWr.rdmaWrite().id(42).local(mr.sge(0, 65536)).remote(peer, 0).signaled());

                Completion[] wcs = Completion.array(64);
                int n = cq.take(wcs, Duration.ofSeconds(5));
                assertEquals(1, n);
                assertEquals(42, wcs[0].id());
                assertTrue(wcs[0].isOk(), () -> String.valueOf(wcs[0].status()));
                // the write completes when its last FPDU is on the socket; wait for the bytes to land
                byte[] landed = new byte[65536];
                do {
                    Thread.sleep(1);
                    target.duplicate().get(landed);
                } while (landed[65535] != pattern[65535]);
                assertArrayEquals(pattern, landed);
            }
        }
    }
}
