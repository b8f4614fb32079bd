package io.jrnic.soft.engine;

import io.jrnic.soft.mem.SoftRegion;

/**
 * An inbound RDMA Read Request accepted within IRD (RFC 5040 section 5.2.2) or an Atomic Request
 * (RFC 7306 section 8.1), waiting for the Transmitter to answer it, in arrival order. A reused slot of
 * the {@link InboundReadQueue}: set when a Request is accepted, cleared when its answer is sent.
 */
final class ReadJob {
    SoftRegion source;
    long sourceOffset;
    long length;
    int sinkStag;
    long sinkTo;
    /** Atomic Response (QN 3) instead of a Read Response. */
    boolean atomic;
    int requestId;
    long originalValue;

    ReadJob read(SoftRegion source, long sourceOffset, long length, int sinkStag, long sinkTo) {
        this.source = source;
        this.sourceOffset = sourceOffset;
        this.length = length;
        this.sinkStag = sinkStag;
        this.sinkTo = sinkTo;
        this.atomic = false;
        return this;
    }

    ReadJob atomicResponse(int requestId, long originalValue) {
        this.source = null;
        this.atomic = true;
        this.requestId = requestId;
        this.originalValue = originalValue;
        return this;
    }

    /** Answered or flushed: the slot no longer keeps the region reachable. */
    void clear() {
        source = null;
    }
}
