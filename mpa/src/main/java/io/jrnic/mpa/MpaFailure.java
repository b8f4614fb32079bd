package io.jrnic.mpa;

import java.util.Arrays;

/**
 * Why a connection set-up failed.
 *
 * @param reason           the precise cause
 * @param llpError         the LLP error the RFC assigns, or null when none applies (a
 *                         rejection, a timeout)
 * @param terminate        true when the RFC asks for a Terminate message carrying
 *                         {@code llpError} (RFC 6581 section 7: insufficient IRD, no matching
 *                         RTR); otherwise the stream is just closed
 * @param peerPrivateData  the application private data of the peer's frame, empty when none
 * @param detail           a human-readable explanation
 */
public record MpaFailure(Reason reason, LlpError llpError, boolean terminate, byte[] peerPrivateData, String detail) {

    public enum Reason {
        /** The Reply had R set (RFC 5044 section 7.1.5). No LLP error. */
        REJECTED_BY_PEER,
        /** This side's application rejected the Request. No LLP error. */
        REJECTED_LOCALLY,
        /** Key not "MPA ID Req Frame" / "MPA ID Rep Frame" (LLP 0x04). */
        INVALID_KEY,
        /** Revision unsupported, or a Reply revision above the Request's (LLP 0x04). */
        INVALID_REVISION,
        /** Revision 2 frame with H set but fewer than 4 bytes of private data (LLP 0x04). */
        INVALID_LENGTH,
        /** PD_Length above the configured cap (LLP 0x04). */
        PRIVATE_DATA_TOO_LONG,
        /** The Reply did not keep the enhanced mode (H) of a revision 2 Request (LLP 0x04). */
        ENHANCED_MISMATCH,
        /** CRC required but the Reply had C clear (LLP 0x04, our choice). */
        CRC_NOT_CONFIRMED,
        /** IRD/ORD cannot be made to fit (LLP 0x06, Terminate). */
        INSUFFICIENT_IRD,
        /** No RTR type both sides support (LLP 0x07, Terminate). */
        NO_MATCHING_RTR,
        /** No complete set-up frame before the deadline. No LLP error. */
        TIMEOUT,
        /** The TCP stream ended (FIN or reset) before set-up completed (LLP 0x01). */
        CONNECTION_CLOSED,
        /** Strict timing: bytes followed the set-up frame before they were allowed (LLP 0x04). */
        BYTES_AFTER_SETUP_FRAME
    }

    public MpaFailure {
        peerPrivateData = peerPrivateData == null ? new byte[0] : peerPrivateData.clone();
    }

    static MpaFailure of(MpaException e) {
        return new MpaFailure(e.reason(), e.error(), false, null, e.getMessage());
    }

    @Override
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaFailure f && f.reason == reason && f.llpError == llpError && f.terminate == terminate
                && Arrays.equals(f.peerPrivateData, peerPrivateData) && f.detail.equals(detail);
    }

    @Override
    public int hashCode() {
        return reason.hashCode() * 31 + Arrays.hashCode(peerPrivateData);
    }

    @Override
    public String toString() {
        return "MpaFailure[" + reason + (llpError == null ? "" : ", " + llpError) + (terminate ? ", terminate" : "")
                + ", pd=" + peerPrivateData.length + "B, " + detail + "]";
    }
}
