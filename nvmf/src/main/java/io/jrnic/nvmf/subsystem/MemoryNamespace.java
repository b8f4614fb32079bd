package io.jrnic.nvmf.subsystem;

import java.nio.ByteBuffer;

/** A namespace held in one direct buffer (at most 2 GiB). */
final class MemoryNamespace implements Namespace {
    private final ByteBuffer data;
    private final int blockSize;

    MemoryNamespace(long bytes, int blockSize) {
        if (bytes <= 0 || bytes % blockSize != 0 || bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("memory namespace of " + bytes + " octets, block " + blockSize);
        }
        data = ByteBuffer.allocateDirect((int) bytes);
        this.blockSize = blockSize;
    }

    @Override
    public long blocks() {
        return data.capacity() / blockSize;
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public void read(long lba, ByteBuffer dst) {
        int at = Math.toIntExact(lba * blockSize);
        dst.put(data.duplicate().position(at).limit(at + dst.remaining()));
    }

    @Override
    public void write(long lba, ByteBuffer src) {
        data.duplicate().position(Math.toIntExact(lba * blockSize)).put(src);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
