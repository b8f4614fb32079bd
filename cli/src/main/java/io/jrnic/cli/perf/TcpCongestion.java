package io.jrnic.cli.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The TCP congestion control new connections of this host (its network namespace) get: every TCP figure of {@code
 * jrnic perf}, RDMA's included (iWARP runs over the kernel's TCP), depends on it. On loopback bbr's pacing costs
 * CPU and its figures drift over seconds: on the 2-core VM cubic gave both sides 1.1-1.5 times bbr's bandwidth
 * (README, "Reading jrnic perf").
 */
public final class TcpCongestion {
    static final Path SYSCTL = Path.of("/proc/sys/net/ipv4/tcp_congestion_control");

    private TcpCongestion() {
    }

    /** This host's default congestion control ({@code net.ipv4.tcp_congestion_control}), or "unknown". */
    public static String ofThisHost() {
        return read(SYSCTL);
    }

    static String read(Path sysctl) {
        try {
            String v = new String(Files.readAllBytes(sysctl), StandardCharsets.US_ASCII).trim();
            return v.isEmpty() ? "unknown" : v;
        } catch (IOException | SecurityException e) {
            return "unknown";
        }
    }
}
