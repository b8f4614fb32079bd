package io.jrnic.nvmf.subsystem;

import java.io.IOException;
import java.nio.ByteBuffer;

/** What a target namespace stores: {@link #blocks()} logical blocks of {@link #blockSize()} octets. */
public interface Namespace extends AutoCloseable {
    long blocks();

    int blockSize();

    /** Reads {@code dst.remaining()} octets starting at block {@code lba}. */
    void read(long lba, ByteBuffer dst) throws IOException;

    /** Writes {@code src.remaining()} octets starting at block {@code lba}. */
    void write(long lba, ByteBuffer src) throws IOException;

    /** Makes every completed write durable (the NVM Flush command). */
    void flush() throws IOException;

    @Override
    void close() throws IOException;

    /** A namespace in memory of {@code bytes} octets (a multiple of {@code blockSize}). */
    static Namespace memory(long bytes, int blockSize) {
        return new MemoryNamespace(bytes, blockSize);
    }

    /** A namespace over {@code file} (created, and grown to {@code bytes} when given, else its size). */
    static Namespace file(java.nio.file.Path file, long bytes, int blockSize) throws IOException {
        return FileNamespace.open(file, bytes, blockSize);
    }
}
