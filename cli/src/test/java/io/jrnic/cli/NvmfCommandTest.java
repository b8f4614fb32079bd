package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NvmfCommandTest {
    private static final String NQN = "nqn.2026-11.io.jrnic:cli";

    @Test
    void hostVerifiesAgainstTheTargetCommand(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path file = dir.resolve("ns.img");
        CompletableFuture<CliRun> target = CompletableFuture.supplyAsync(() -> CliRun.of("nvmf", "target",
                "--listen", "127.0.0.1:" + port, "--file", file.toString(), "--size", "2M", "--nqn", NQN,
                "--max-seconds", "4"));
        CliRun host = null;
        for (int attempt = 0; attempt < 50; attempt++) { // until the target listens (bounded)
            // with the pause a host gives a siw target after each MPA Reply (--first-fpdu-delay-ms)
            host = CliRun.of("nvmf", "host", "127.0.0.1:" + port, "--nqn", NQN, "--verify", "--bytes", "1M",
                    "--first-fpdu-delay-ms", "20");
            if (host.exit() == 0 || !host.err().contains("connect")) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals(0, host.exit(), host.err() + host.out());
        assertTrue(host.out().contains("all verified"), host.out());
        CliRun t = target.get(30, TimeUnit.SECONDS);
        assertEquals(0, t.exit(), t.err() + t.out());
        assertTrue(t.out().contains("serving") && t.out().contains("controller 1"), t.out());
    }

    @Test
    void hostCannotConnectToAnotherSubsystemAndExitsOne() throws Exception {
        try (RdmaDevice dev = Rdma.open("soft"); Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget t = NvmfTarget.start(dev, new InetSocketAddress("127.0.0.1", 0),
                        NvmfTarget.Config.defaults(NQN), ns)) {
            CliRun r = CliRun.of("nvmf", "host", "127.0.0.1:" + t.address().getPort(), "--nqn", NQN + "x",
                    "--verify");
            assertEquals(1, r.exit(), r.out());
            assertTrue(r.err().contains("SCT 1 SC 0x82"), r.err());
        }
    }

    @Test
    void hostExitsOneWhenWhatItReadsBackDiffers() throws Exception {
        Namespace mem = Namespace.memory(1 << 20, 512);
        Namespace corrupting = new Namespace() { // flips one byte of every read past the first MiB/2
            public long blocks() {
                return mem.blocks();
            }

            public int blockSize() {
                return mem.blockSize();
            }

            public void read(long lba, java.nio.ByteBuffer dst) throws java.io.IOException {
                int at = dst.position();
                mem.read(lba, dst);
                if (lba >= 1024) {
                    dst.put(at, (byte) ~dst.get(at));
                }
            }

            public void write(long lba, java.nio.ByteBuffer src) throws java.io.IOException {
                mem.write(lba, src);
            }

            public void flush() {
            }

            public void close() {
            }
        };
        try (RdmaDevice dev = Rdma.open("soft");
                NvmfTarget t = NvmfTarget.start(dev, new InetSocketAddress("127.0.0.1", 0),
                        NvmfTarget.Config.defaults(NQN), corrupting)) {
            CliRun r = CliRun.of("nvmf", "host", "127.0.0.1:" + t.address().getPort(), "--nqn", NQN, "--verify",
                    "--io-size", "64K");
            assertEquals(1, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("MISMATCH at byte 524288"), r.out());
        }
    }

    @Test
    void tinyBenchPrintsEveryWorkloadForBothTransportsAndVerifies() {
        CliRun r = CliRun.of("nvmf", "bench", "--qd", "1,4", "--seconds", "0.05", "--reps", "1", "--device-mib", "2");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("nvmf IOPS") && r.out().contains("tcp IOPS"), r.out());
        for (String w : new String[] {"randread_4k", "randwrite_4k", "seqread_128k", "seqwrite_128k"}) {
            assertEquals(2, r.outLines().stream().filter(l -> l.startsWith(w)).count(), r.out());
        }
        assertTrue(r.out().matches("(?s).*verified [1-9][0-9]* blocks read back, 0 errors.*"), r.out());
        assertEquals(2, CliRun.of("nvmf", "bench", "--qd", "65").exit());
    }

    @Test
    void hostRejectsANegativeFirstFpduDelayBeforeConnecting() {
        CliRun r = CliRun.of("nvmf", "host", "127.0.0.1:9", "--nqn", NQN, "--first-fpdu-delay-ms", "-1");
        assertEquals(2, r.exit(), r.err() + r.out());
        assertTrue(r.err().contains("--first-fpdu-delay-ms >= 0"), r.err());
    }
}
