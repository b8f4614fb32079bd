package io.jrnic.ddp;

/** Maps an STag to the region it names; implemented by the engine's memory table. */
@FunctionalInterface
public interface TaggedBufferLookup {
    /** The region named by the STag, or null when no such STag exists. */
    TaggedRegion lookup(int stag);
}
