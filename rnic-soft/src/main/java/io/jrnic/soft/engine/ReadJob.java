package io.jrnic.soft.engine;

import io.jrnic.soft.mem.SoftRegion;

/**
 * An inbound RDMA Read Request accepted within IRD (RFC 5040 section 5.2.2) or an Atomic Request
 * (RFC 7306 section 8.1), waiting for the Transmitter to answer it, in arrival order.
 */
final class ReadJob {
    final SoftRegion source;
    final long sourceOffset;
    final long length;
    final int sinkStag;
    final long sinkTo;
    /** Atomic Response (QN 3) instead of a Read Response. */
    final boolean atomic;
    final int requestId;
    final long originalValue;

    private ReadJob(SoftRegion source, long sourceOffset, long length, int sinkStag, long sinkTo, boolean atomic,
            int requestId, long originalValue) {
        this.source = source;
        this.sourceOffset = sourceOffset;
        this.length = length;
        this.sinkStag = sinkStag;
        this.sinkTo = sinkTo;
        this.atomic = atomic;
        this.requestId = requestId;
        this.originalValue = originalValue;
    }

    static ReadJob read(SoftRegion source, long sourceOffset, long length, int sinkStag, long sinkTo) {
        return new ReadJob(source, sourceOffset, length, sinkStag, sinkTo, false, 0, 0);
    }

    static ReadJob atomicResponse(int requestId, long originalValue) {
        return new ReadJob(null, 0, 0, 0, 0, true, requestId, originalValue);
    }
}
