package io.jrnic.interop.decode;

import io.jrnic.mpa.MpaSetupFrame;

/**
 * One MPA Request or Reply (RFC 5044 section 7.1.1, RFC 6581 section 5).
 *
 * @param stream MPA stream index
 * @param dir    I2R for the Request, R2I for the Reply
 * @param frame  pcap frame where the frame ends
 * @param connection "initiator > responder" endpoints
 * @param frameInfo the decoded frame
 */
public record SetupRecord(int stream, Direction dir, long frame, String connection, MpaSetupFrame frameInfo) {
}
