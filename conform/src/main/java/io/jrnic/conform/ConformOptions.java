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
 * @param firstFpduDelay initiator role: a pause between the Reply and our first FPDU (Linux siw as responder
 *                     hands the socket to its queue pair only after sending the Reply: an FPDU in that window is lost)
 */
public record ConformOptions(InetSocketAddress target, int servePort, boolean crc, Duration timeout,
                             Duration stallTimeout, Duration connectWait, Duration firstFpduDelay) {
    public ConformOptions(InetSocketAddress target, int servePort, boolean crc, Duration timeout, Duration stallTimeout,
                          Duration connectWait) {
        this(target, servePort, crc, timeout, stallTimeout, connectWait, Duration.ZERO);
    }

    public static ConformOptions initiator(InetSocketAddress target) {
        return new ConformOptions(target, 0, false, Duration.ofSeconds(5), Duration.ofSeconds(40), Duration.ofSeconds(20));
    }

    public ConformOptions withFirstFpduDelay(Duration v) {
        return new ConformOptions(target, servePort, crc, timeout, stallTimeout, connectWait, v);
    }

    public ConformOptions withCrc(boolean v) {
        return new ConformOptions(target, servePort, v, timeout, stallTimeout, connectWait, firstFpduDelay);
    }

    public ConformOptions withTimeout(Duration v) {
        return new ConformOptions(target, servePort, crc, v, stallTimeout, connectWait, firstFpduDelay);
    }

    public ConformOptions withStallTimeout(Duration v) {
        return new ConformOptions(target, servePort, crc, timeout, v, connectWait, firstFpduDelay);
    }

    public ConformOptions withServePort(int port) {
        return new ConformOptions(target, port, crc, timeout, stallTimeout, connectWait, firstFpduDelay);
    }

    public ConformOptions withConnectWait(Duration v) {
        return new ConformOptions(target, servePort, crc, timeout, stallTimeout, v, firstFpduDelay);
    }
}
