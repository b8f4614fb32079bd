package io.jrnic.cli.nvmf;

import java.net.InetSocketAddress;

/** ADDR:PORT parsing ({@code 10.0.0.1:4420}, {@code [::1]:4420}, or a bare port). */
final class Endpoint {
    static final int NVME_RDMA_PORT = 4420;

    private Endpoint() {
    }

    static InetSocketAddress parse(String s) {
        String host;
        String port;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("bad address " + s);
            }
            host = s.substring(1, close);
            port = s.length() > close + 1 && s.charAt(close + 1) == ':' ? s.substring(close + 2) : "";
        } else if (s.matches("\\d+")) {
            host = "0.0.0.0";
            port = s;
        } else {
            int colon = s.lastIndexOf(':');
            host = colon < 0 ? s : s.substring(0, colon);
            port = colon < 0 ? "" : s.substring(colon + 1);
        }
        int p = port.isEmpty() ? NVME_RDMA_PORT : Integer.parseInt(port);
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException("bad port " + p);
        }
        return new InetSocketAddress(host, p);
    }

    /** {@code 4096}, {@code 64K}, {@code 16M}, {@code 1G} (binary units). */
    static long bytes(String s) {
        String t = s.trim().toUpperCase(java.util.Locale.ROOT);
        long mult = 1;
        char last = t.isEmpty() ? '0' : t.charAt(t.length() - 1);
        if (last == 'K' || last == 'M' || last == 'G' || last == 'T') {
            mult = 1L << (10 * ("KMGT".indexOf(last) + 1));
            t = t.substring(0, t.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(t), mult);
    }
}
