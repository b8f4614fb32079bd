package io.jrnic.verbs.spi;

/** A provider's memory window. */
public interface MwSpi {
    /** Current STag (changes with each bind). */
    int stag();

    /** True while bound and not invalidated. */
    boolean isBound();

    /** Deallocate: the STag stops working immediately. */
    void close();
}
