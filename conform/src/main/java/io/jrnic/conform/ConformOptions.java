package io.jrnic.conform;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A run's settings.
 *
 * @param target       the target's server (initiator role)
 * @param servePort    the port jrnic listens on for the target's client (responder role); 0 = any
 * @param crc          request MPA CRC in every case that does not set it itself
 * @param timeout      how long to wait for each reaction
 * @param stallTimeout how long to wait for the target to drop a stalled peer
 * @param connectWait  responder role: how long to wait for the target's client to connect
 */
public record ConformOptions(InetSocketAddress target, int servePort, boolean crc, Duration timeout,
                             Duration stallTimeout, Duration connectWait) {
    public static ConformOptions initiator(InetSocketAddress target) {
        return new ConformOptions(target, 0, false, Duration.ofSeconds(5), Duration.ofSeconds(40), Duration.ofSeconds(20));
    }

    public ConformOptions withCrc(boolean v) {
        return new ConformOptions(target, servePort, v, timeout, stallTimeout, connectWait);
    }

    public ConformOptions withTimeout(Duration v) {
        return new ConformOptions(target, servePort, crc, v, stallTimeout, connectWait);
    }

    public ConformOptions withStallTimeout(Duration v) {
        return new ConformOptions(target, servePort, crc, timeout, v, connectWait);
    }

    public ConformOptions withServePort(int port) {
        return new ConformOptions(target, port, crc, timeout, stallTimeout, connectWait);
    }

    public ConformOptions withConnectWait(Duration v) {
        return new ConformOptions(target, servePort, crc, timeout, stallTimeout, v);
    }
}
