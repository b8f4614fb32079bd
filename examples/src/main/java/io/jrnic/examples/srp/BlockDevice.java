package io.jrnic.examples.srp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The target's block device: a file of {@code blocks * BLOCK} bytes behind a {@link FileChannel}. */
public final class BlockDevice implements AutoCloseable {
    private final FileChannel channel;
    private final long blocks;

    private BlockDevice(FileChannel channel, long blocks) {
        this.channel = channel;
        this.blocks = blocks;
    }

    /** Opens (creating or growing) {@code file} as a device of {@code blocks} blocks. */
    public static BlockDevice open(Path file, long blocks) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        if (ch.size() < blocks * SrpWire.BLOCK) {
            ch.write(ByteBuffer.allocate(1), blocks * SrpWire.BLOCK - 1);
        }
        return new BlockDevice(ch, blocks);
    }

    public long blocks() {
        return blocks;
    }

    /** Reads {@code dst.remaining()} bytes at block {@code lba}. */
    public void read(long lba, ByteBuffer dst) throws IOException {
        long pos = lba * SrpWire.BLOCK;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, pos);
            if (n < 0) {
                throw new IOException("end of device file at " + pos);
            }
            pos += n;
        }
    }

    /** Writes {@code src.remaining()} bytes at block {@code lba}. */
    public void write(long lba, ByteBuffer src) throws IOException {
        long pos = lba * SrpWire.BLOCK;
        while (src.hasRemaining()) {
            pos += channel.write(src, pos);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
