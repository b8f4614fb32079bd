package example;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** One RDMA WRITE between two soft RNICs over loopback. */
public final class Hello {
    public static void main(String[] args) throws Exception {
        try (RdmaDevice server = Rdma.open("soft"); RdmaDevice client = Rdma.open("soft")) {
            byte[] target = new byte[64];
            MemoryRegion targetMr = server.allocatePd().register(target, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            QueuePair sqp = targetMr.pd().createQp(QpInit.rc(server.createCq(16)));
            Listener l = server.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(sqp, AcceptOptions.defaults().privateData(targetMr.advertise())));

            CompletionQueue cq = client.createCq(16);
            byte[] hello = "hello, jrnic".getBytes(StandardCharsets.US_ASCII);
            MemoryRegion src = client.allocatePd().register(hello, Access.LOCAL_WRITE);
            QueuePair qp = src.pd().createQp(QpInit.rc(cq));
            RemoteBuffer peer = RemoteBuffer.parse(client.connectionManager()
                    .connect(l.localAddress(), qp, ConnectOptions.defaults().peerToPeer(RtrType.WRITE))
                    .get(10, TimeUnit.SECONDS).peerPrivateData());
            qp.postSend(SendWr.rdmaWrite().id(1).local(src.sge()).remote(peer, 0).signaled());
            Completion[] c = Completion.array(1);
            while (cq.poll(c) == 0) {
                Thread.onSpinWait();
            }
            String placed = "";
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    !placed.equals("hello, jrnic") && System.nanoTime() < end; Thread.sleep(1)) {
                placed = new String(target, 0, hello.length, StandardCharsets.US_ASCII);
            }
            System.out.println("RDMA WRITE " + c[0].status() + ", placed at the server: " + placed);
        }
    }
}
