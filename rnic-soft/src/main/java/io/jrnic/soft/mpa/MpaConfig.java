package io.jrnic.soft.mpa;

import io.jrnic.mpa.MpaOptions;
import io.jrnic.rdmap.TerminateDecoder;

/**
 * One side's connection set-up options: the MPA negotiator's options (RFC 5044 section 7.1, RFC 6581)
 * plus what the engine adds around them.
 *
 * @param mpa                  options handed to {@code MpaInitiator} / {@code MpaResponder}
 * @param mulpdu               largest ULPDU to send; 0 derives it from the stream's MSS (one FPDU per segment)
 * @param firstFpduDelayMillis initiator: pause between the Reply and the first FPDU (siw's responder race)
 * @param connectTimeoutMillis TCP connect timer
 * @param acceptTimeoutMillis  responder: how long a received Request may wait for accept or reject
 * @param terminates           how received Terminates are read (RFC 5040 section 4.8, siw's layout, or either)
 * @param transmitStallTimeoutMillis how long the outbound buffer may stay above its low water mark; 0 = never lost
 * @param rdmapExtensions      RFC 7306 opcodes taken on receive (false: refused with RDMAP/2/0x06)
 * @param deadPeerTimeoutMillis the stream is lost once it heard nothing from the peer this long while waiting for it
 *                             (keepalive and TCP_USER_TIMEOUT, {@link io.jrnic.soft.net.DeadPeer}); 0 = off
 * @param tcpRtoMinMicros      the stream's minimum TCP retransmission timeout ({@link io.jrnic.soft.net.RtoMin}); 0 =
 *                             the kernel's
 */
public record MpaConfig(MpaOptions mpa, int mulpdu, long firstFpduDelayMillis, long connectTimeoutMillis,
                        long acceptTimeoutMillis, TerminateDecoder.Mode terminates, int maxPendingSetups,
                        long transmitStallTimeoutMillis, boolean rdmapExtensions, long deadPeerTimeoutMillis,
                        long tcpRtoMinMicros) {
    public static final MpaConfig DEFAULTS = new MpaConfig(MpaOptions.defaults(), 0, 0, 5_000, 5_000,
            TerminateDecoder.Mode.STRICT, 1024, 60_000, true, 0, 0);

    public MpaConfig withMpa(MpaOptions o) {
        return new MpaConfig(o, mulpdu, firstFpduDelayMillis, connectTimeoutMillis, acceptTimeoutMillis, terminates, maxPendingSetups,
                transmitStallTimeoutMillis, rdmapExtensions, deadPeerTimeoutMillis, tcpRtoMinMicros);
    }
}
