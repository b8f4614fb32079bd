package io.jrnic.verbs.spi;

import io.jrnic.verbs.Memory;

/**
 * A registration request, validated by the API (access rules, writability, key range).
 *
 * @param memory    the bytes
 * @param access    {@link io.jrnic.verbs.Access} mask
 * @param zeroBased TO 0 names the first byte; otherwise TO {@code base} does
 * @param base      base TO of address-based regions, or {@link #PROVIDER_CHOOSES_BASE}
 * @param key       the consumer's 8-bit STag key, or {@link #PROVIDER_KEY}: the provider chooses one a peer
 *                  cannot predict
 */
public record MrSpec(Memory memory, int access, boolean zeroBased, long base, int key) {
    /** Sentinel for "provider picks the base address". */
    public static final long PROVIDER_CHOOSES_BASE = -1L;
    /** Sentinel for "provider picks the STag key" (unpredictably: RFC 5042 section 5.1). */
    public static final int PROVIDER_KEY = -1;
}
