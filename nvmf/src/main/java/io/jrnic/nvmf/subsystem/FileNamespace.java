package io.jrnic.nvmf.subsystem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A namespace over a file through {@link FileChannel}; Flush is {@link FileChannel#force(boolean)}. */
final class FileNamespace implements Namespace {
    private final FileChannel channel;
    private final long blocks;
    private final int blockSize;

    private FileNamespace(FileChannel channel, long blocks, int blockSize) {
        this.channel = channel;
        this.blocks = blocks;
        this.blockSize = blockSize;
    }

    static FileNamespace open(Path file, long bytes, int blockSize) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            long size = bytes > 0 ? bytes : ch.size();
            if (size < blockSize) {
                throw new IOException(file + ": size " + size + " is below one block of " + blockSize
                        + " (give a size for a new file)");
            }
            if (ch.size() < size) {
                ch.write(ByteBuffer.allocate(1), size - 1);
            }
            return new FileNamespace(ch, size / blockSize, blockSize);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public long blocks() {
        return blocks;
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public void read(long lba, ByteBuffer dst) throws IOException {
        long pos = lba * blockSize;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, pos);
            if (n < 0) {
                throw new IOException("end of file at " + pos);
            }
            pos += n;
        }
    }

    @Override
    public void write(long lba, ByteBuffer src) throws IOException {
        long pos = lba * blockSize;
        while (src.hasRemaining()) {
            pos += channel.write(src, pos);
        }
    }

    @Override
    public void flush() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
