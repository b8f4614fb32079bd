package io.jrnic.cli.perf;

/**
 * What every perf buffer is (--memory): direct memory ({@code ByteBuffer.allocateDirect}, the default: the TCP
 * baseline uses direct buffers, a service that cares about speed registers direct memory, and the soft RNIC
 * transmits payload segments of 4096 bytes and more from direct memory without a copy) or a heap {@code byte[]}.
 * A local choice of each side: nothing on the wire or the control channel depends on it.
 */
public enum MemoryKind {
    DIRECT, HEAP;

    public String label() {
        return this == DIRECT ? "direct" : "heap";
    }
}
