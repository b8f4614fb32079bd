package io.jrnic.nvmf.host;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** nvmf/README.md's ten-line host example, against a loopback target (the address is the only change). */
@Timeout(60)
class ReadmeExampleTest {
    @Test
    void theReadmeExampleRuns() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, new InetSocketAddress("127.0.0.1", 0),
                        NvmfTarget.Config.defaults("nqn.2026-11.io.jrnic:disk"), ns)) {
            InetSocketAddress address = target.address();
            // --- README ---
            try (RdmaDevice dev = Rdma.open("soft");
                 NvmfHost host = NvmfHost.connect(dev, address,
                         NvmfHost.Options.defaults("nqn.2026-11.io.jrnic:disk").ioQueues(2).queueDepth(32))) {
                ByteBuffer block = ByteBuffer.allocateDirect(4096);
                host.write(0, block).get();                               // one CompletableFuture per I/O
                host.read(8, ByteBuffer.allocate(4096)).thenAccept(v -> System.out.println("read"));
                host.batch(List.of(NvmfHost.Io.write(16, block), NvmfHost.Io.read(24, block.duplicate()))).get();
                host.flush().get();
            }   // close(): I/O queues disconnected, CC.SHN shutdown, admin queue disconnected
            // --- end ---
            // the association ends, then each queue as its stream's end is reported: both reach 0
            ErrorPathsTest.awaitTrue(() -> target.controllerCount() == 0 && target.queueCount() == 0);
        }
    }
}
