package io.jrnic.conform.wire;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Everything one case's connection carried, in order, for the run's pcap. */
public final class Recording {
    /** One send: bytes, a FIN or a RST from one side. */
    public record Chunk(long wallNanos, boolean fromTcpClient, byte[] bytes, boolean fin, boolean rst) {
    }

    private final String caseId;
    private final List<Chunk> chunks = new ArrayList<>();
    private InetSocketAddress tcpClient;
    private InetSocketAddress tcpServer;

    public Recording(String caseId) {
        this.caseId = caseId;
    }

    public String caseId() {
        return caseId;
    }

    synchronized void endpoints(InetSocketAddress client, InetSocketAddress server) {
        this.tcpClient = client;
        this.tcpServer = server;
    }

    synchronized void add(boolean fromTcpClient, byte[] bytes, boolean fin, boolean rst) {
        long now = System.currentTimeMillis() * 1_000_000L + System.nanoTime() % 1_000_000L;
        chunks.add(new Chunk(now, fromTcpClient, bytes, fin, rst));
    }

    public synchronized List<Chunk> chunks() {
        return List.copyOf(chunks);
    }

    /** The TCP client's address, or null when no connection was made. */
    public synchronized InetSocketAddress tcpClient() {
        return tcpClient;
    }

    public synchronized InetSocketAddress tcpServer() {
        return tcpServer;
    }
}
