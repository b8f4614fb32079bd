package io.jrnic.fileregion;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Memory over a memory-mapped file, ready to be registered: RDMA WRITEs a peer places into the
 * region land in the file's pages, RDMA READs of the region read the file.
 *
 * <p>JDK only ({@link MappedByteBuffer}, Java 17): Chronicle Bytes needs {@code --add-opens} /
 * {@code --add-exports} flags on 17 and pulls in several artifacts for what one {@code map} call
 * does; the Foreign Memory API is not final on 17. Limits: one mapping is at most
 * {@link Integer#MAX_VALUE} bytes (a {@link Memory} is int-indexed); the JDK 17 API cannot unmap
 * explicitly, so {@link #close()} flushes and closes the channel and the pages are unmapped when
 * the buffer becomes unreachable (close the regions registered over it first).
 */
public final class MappedFileRegion implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final MappedByteBuffer buffer;

    private MappedFileRegion(Path file, FileChannel channel, MappedByteBuffer buffer) {
        this.file = file;
        this.channel = channel;
        this.buffer = buffer;
    }

    /**
     * Maps {@code length} bytes of {@code file} from offset 0 read-write, creating the file or
     * growing it to {@code length} (zeros) as needed.
     */
    public static MappedFileRegion map(Path file, int length) throws IOException {
        if (length < 1) {
            throw new IllegalArgumentException("length must be positive: " + length);
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            return new MappedFileRegion(file, ch, ch.map(FileChannel.MapMode.READ_WRITE, 0, length));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The mapped file. */
    public Path file() {
        return file;
    }

    /** Number of mapped bytes. */
    public int length() {
        return buffer.capacity();
    }

    /** The whole mapping as registrable memory. */
    public Memory memory() {
        return Memory.of(buffer);
    }

    /** {@code [offset, offset+length)} of the mapping as registrable memory. */
    public Memory memory(int offset, int length) {
        return Memory.of(buffer, offset, length);
    }

    /** Registers the whole mapping in {@code pd}. */
    public MemoryRegion register(ProtectionDomain pd, Access... access) {
        return pd.register(memory(), access);
    }

    /** Writes dirty pages to the storage device ({@link MappedByteBuffer#force()}). */
    public void force() {
        buffer.force();
    }

    /** Flushes and closes the file channel (see the class comment on unmapping). */
    @Override
    public void close() throws IOException {
        try {
            buffer.force();
        } finally {
            channel.close();
        }
    }
}
