package io.jrnic.soft.engine;

import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.TerminateDecoder;

/**
 * What MPA negotiation fixed for one stream (RFC 5044 section 7.1, RFC 6581 section 5).
 *
 * @param crc          CRCs generated and checked in both directions
 * @param markersTx    this side inserts markers (the peer asked with M)
 * @param markersRx    the peer inserts markers (we asked with M)
 * @param mulpdu       largest ULPDU this side sends
 * @param ird          inbound Read Requests (and Atomic Requests) this side queues
 * @param ord          outbound Read Requests (and Atomics) in flight
 * @param rtr          peer-to-peer RTR: what the initiator sends first, NONE without P2P
 * @param initiator    this side sent the MPA Request
 * @param firstFpduDelayMillis initiator: pause after the Reply before the first FPDU (siw responder race)
 * @param terminates   how received Terminates are read: STRICT (RFC 5040 section 4.8), SIW_QUIRK or EITHER
 * @param transmitStallTimeoutMillis the stream is lost (LLP error) when its outbound buffer stays above the low
 *                     water mark this long; 0 = never
 * @param rdmapExtensions RFC 7306 opcodes taken on receive; false: refused with RDMAP/2/0x06 (RFC 5040 alone)
 */
public record StreamParams(boolean crc, boolean markersTx, boolean markersRx, int mulpdu, int ird, int ord,
                           RtrType rtr, boolean initiator, long firstFpduDelayMillis, TerminateDecoder.Mode terminates,
                           long transmitStallTimeoutMillis, boolean rdmapExtensions) {

    /** Received Terminates read in the RFC layout; no transmit stall timeout. */
    public StreamParams(boolean crc, boolean markersTx, boolean markersRx, int mulpdu, int ird, int ord,
                        RtrType rtr, boolean initiator, long firstFpduDelayMillis) {
        this(crc, markersTx, markersRx, mulpdu, ird, ord, rtr, initiator, firstFpduDelayMillis,
                TerminateDecoder.Mode.STRICT, 0, true);
    }
}
