package io.jrnic.verbs.spi;

import io.jrnic.verbs.Memory;

/** A provider's memory region (its translation-and-protection-table entry). Reads may race with the provider's updates; they must be thread-safe. */
public interface MrSpi {
    /** Current STag (index + current key). Changes on fast registration. */
    int stag();

    /** False when invalidated (local or remote invalidate) or a fast-reg region not registered yet. */
    boolean isValid();

    /** The mapped memory, null for an unregistered fast-reg region. */
    Memory memory();

    /** Bytes mapped (0 for an unregistered fast-reg region). */
    int length();

    /** TO of the first byte (0 when zero-based). */
    long address();

    /** Current access mask. */
    int access();

    /** Deregister: the STag stops working immediately (later accesses fail with invalid STag). */
    void close();
}
