package io.jrnic.cli.perf;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code --capture FILE} for a run of several connections (perf opens one per test and warm-up):
 * the first connection goes to FILE, the n-th to FILE with "-n" before its extension
 * ({@code run.pcap}, {@code run-2.pcap}, ...), in connection order.
 */
public final class CaptureFiles {
    private final Path base;
    private final AtomicInteger connections = new AtomicInteger();

    public CaptureFiles(Path base) {
        this.base = base;
    }

    public Path next() {
        int n = connections.incrementAndGet();
        if (n == 1) {
            return base;
        }
        String name = base.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        return base.resolveSibling(stem + "-" + n + ext);
    }

    @Override
    public String toString() {
        return base.toString();
    }
}
