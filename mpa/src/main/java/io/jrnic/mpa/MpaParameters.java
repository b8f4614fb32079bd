package io.jrnic.mpa;

import java.util.Arrays;

/**
 * What a successful MPA set-up negotiated.
 *
 * @param revision        1 or 2
 * @param crc             CRCs generated and checked in both directions
 * @param markersTx       insert markers into what we send (the peer set M)
 * @param markersRx       expect markers in what we receive (we set M)
 * @param localIrd        our IRD after adjustment
 * @param localOrd        our ORD after adjustment
 * @param peerIrd         the peer's IRD, or -1 when not exchanged (revision 1)
 * @param peerOrd         the peer's ORD, or -1 when not exchanged (revision 1)
 * @param p2p             peer-to-peer mode negotiated: the initiator sends an RTR first
 * @param rtrType         the RTR message chosen (NONE without p2p)
 * @param peerPrivateData the peer's application private data, without the revision 2 words
 */
public record MpaParameters(int revision, boolean crc, boolean markersTx, boolean markersRx, int localIrd,
        int localOrd, int peerIrd, int peerOrd, boolean p2p, RtrType rtrType, byte[] peerPrivateData) {

    public MpaParameters {
        peerPrivateData = peerPrivateData.clone();
    }

    @Override
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    /** True when IRD/ORD were exchanged (revision 2 with H). */
    public boolean irdOrdExchanged() {
        return peerIrd >= 0;
    }

    /** An encoder for our direction, from stream position 0. */
    public FpduEncoder newEncoder() {
        return new FpduEncoder(crc, markersTx);
    }

    /** A decoder for the peer's direction, from stream position 0. */
    public FpduDecoder newDecoder(FpduListener listener) {
        return new FpduDecoder(crc, markersRx, listener);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaParameters p && p.revision == revision && p.crc == crc && p.markersTx == markersTx
                && p.markersRx == markersRx && p.localIrd == localIrd && p.localOrd == localOrd
                && p.peerIrd == peerIrd && p.peerOrd == peerOrd && p.p2p == p2p && p.rtrType == rtrType
                && Arrays.equals(p.peerPrivateData, peerPrivateData);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new int[] {revision, localIrd, localOrd, peerIrd, peerOrd, rtrType.ordinal()})
                * 31 + Arrays.hashCode(peerPrivateData);
    }

    @Override
    public String toString() {
        return "MpaParameters[rev " + revision + ", crc " + crc + ", markers tx/rx " + markersTx + "/" + markersRx
                + ", IRD/ORD local " + localIrd + "/" + localOrd + " peer " + peerIrd + "/" + peerOrd
                + ", p2p " + p2p + " rtr " + rtrType + ", pd " + peerPrivateData.length + "B]";
    }
}
