package io.jrnic.verbs;

/** Optional features; posting an opcode whose capability is missing throws InvalidWorkRequestException UNSUPPORTED_OPCODE. */
public enum DeviceCapability {
    /** RFC 7306 atomics. */
    ATOMICS,
    /** RFC 7306 Immediate Data (IMMEDIATE_DATA, RDMA_WRITE_WITH_IMMEDIATE). */
    IMMEDIATE_DATA,
    MEMORY_WINDOW_TYPE_1,
    MEMORY_WINDOW_TYPE_2,
    /** REG_MR work requests. */
    FAST_REGISTRATION,
    SHARED_RECEIVE_QUEUE,
    /** MPA markers (RFC 5044 section 5). */
    MARKERS
}
