package io.jrnic.ddp;

/**
 * What the Data Sink knows about the buffer an STag names (RFC 5041 section 3.1, RFC 5040 section
 * 5.2): implemented by the engine's memory regions and windows. Access rights are RDMAP's check
 * (RFC 5040 remote protection error 0x02), not DDP's; they are exposed here so RDMAP can test them.
 */
public interface TaggedRegion {
    /** False once invalidated or deregistered, or if the STag's key does not match. */
    boolean valid();

    /** True if the region may be used by this DDP stream (same protection domain, or window bound to it). */
    boolean associatedWith(long streamId);

    /** The TO of the region's first byte (0 for zero-based regions, else a virtual address). */
    long baseTaggedOffset();

    /** Region length in bytes (unsigned). */
    long length();

    /** True if a remote peer may write (RDMA Write, Atomics) into the region. */
    boolean remoteWrite();

    /** True if a remote peer may read (RDMA Read source) from the region. */
    boolean remoteRead();
}
