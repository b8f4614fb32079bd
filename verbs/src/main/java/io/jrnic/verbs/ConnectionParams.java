package io.jrnic.verbs;

import java.util.Set;

/**
 * MPA parameters of a connection. In a connect request: what the initiator offered. Once
 * established: what is in effect, with the peer's private data.
 *
 * @param mpaRevision  1 or 2
 * @param crc          CRC requested by the peer (offer) / in use (established)
 * @param markers      markers requested by the peer (offer) / in use toward this side (established)
 * @param ird          IRD (offer: the peer's; established: this side's)
 * @param ord          ORD (offer: the peer's; established: this side's)
 * @param peerToPeer   P2P mode requested / in effect
 * @param rtrTypes     RTR types offered / the single one chosen
 * @param privateData  the peer's application private data (MPA v2 IRD/ORD words removed)
 */
public record ConnectionParams(int mpaRevision, boolean crc, boolean markers, int ird, int ord, boolean peerToPeer,
                               Set<RtrType> rtrTypes, byte[] privateData) {
    public ConnectionParams {
        rtrTypes = Set.copyOf(rtrTypes);
        privateData = privateData.clone();
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }
}
