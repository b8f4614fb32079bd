package io.jrnic.verbs.spi;

/**
 * Creation parameters of a QP, validated against the device attributes by the API.
 *
 * @param maxSendWr  send queue depth
 * @param maxRecvWr  receive queue depth (0 with an SRQ)
 * @param maxSendSge SGEs per send WR
 * @param maxRecvSge SGEs per receive WR
 * @param maxInline  largest inline payload
 * @param signalAll  every send WR completes signaled
 * @param srq        the SRQ receives come from, or null
 */
public record QpSpec(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInline,
                     boolean signalAll, SrqSpi srq) {
}
