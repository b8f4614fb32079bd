package io.jrnic.cli.nvmf;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jrnic nvmf target}: serves a file as namespace 1 of an NVM subsystem until killed. */
@Command(name = "target", description = {"Serve a file as an NVMe namespace over NVMe/RDMA (iWARP), until killed.",
        "Exit code: 0 after --max-seconds, 1 on an I/O error opening the file, 2 bad usage."})
public final class NvmfTargetCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--listen", paramLabel = "ADDR:PORT", defaultValue = "0.0.0.0:4420",
            description = "address to listen on (default 0.0.0.0:4420)") String listen;
    @Option(names = "--file", paramLabel = "PATH", required = true, description = "backing file") Path file;
    @Option(names = "--size", paramLabel = "BYTES",
            description = "size (K/M/G suffixes); the file is created or grown to it (default: the file's size)")
    String size;
    @Option(names = "--nqn", paramLabel = "NQN", required = true, description = "the subsystem NQN") String nqn;
    @Option(names = "--block-size", paramLabel = "N", defaultValue = "512",
            description = "logical block size, 512 or 4096 (default 512)") int blockSize;
    @Option(names = "--crc", description = "require MPA CRC on every connection") boolean crc;
    @Option(names = "--capture", paramLabel = "FILE", description = "write a pcap of the connections to FILE")
    Path capture;
    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "0",
            description = "stop after S seconds (default 0: until killed)") long maxSeconds;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long bytes;
        try {
            bytes = size == null ? 0 : Endpoint.bytes(size);
        } catch (RuntimeException e) {
            err.println("nvmf target: bad --size " + size);
            return 2;
        }
        if (blockSize != 512 && blockSize != 4096) {
            err.println("nvmf target: --block-size 512 or 4096");
            return 2;
        }
        if (bytes == 0 && !Files.exists(file)) {
            err.println("nvmf target: " + file + " does not exist: give --size");
            return 2;
        }
        ConnectOptions co = ConnectOptions.defaults().crc(crc);
        if (capture != null) {
            co = co.capture(capture);
        }
        try (RdmaDevice dev = Rdma.open("soft");
                Namespace ns = Namespace.file(file, bytes, blockSize);
                NvmfTarget t = NvmfTarget.start(dev, Endpoint.parse(listen),
                        NvmfTarget.Config.defaults(nqn).withConnect(co), ns)) {
            t.onEvent(s -> {
                out.println("nvmf target: " + s);
                out.flush();
            });
            out.printf("nvmf target: serving %s (%d blocks of %d octets) as %s namespace 1 on %s%n", file,
                    ns.blocks(), ns.blockSize(), nqn, t.address());
            out.flush();
            long end = maxSeconds > 0 ? System.nanoTime() + maxSeconds * 1_000_000_000L : Long.MAX_VALUE;
            while (maxSeconds == 0 || System.nanoTime() < end) {
                Thread.sleep(200);
            }
        } catch (java.io.IOException e) {
            err.println("nvmf target: " + e.getMessage());
            return 1;
        }
        return 0;
    }
}
