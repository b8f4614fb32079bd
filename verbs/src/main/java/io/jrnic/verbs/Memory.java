package io.jrnic.verbs;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A span of Java memory that can back a memory region: a heap {@code byte[]}, a heap or direct
 * {@link ByteBuffer}, or a Netty {@link ByteBuf}. Without explicit bounds the whole array / the
 * buffer's whole capacity is covered, independent of position, limit, reader or writer index.
 *
 * <p>{@link #view()} is what providers read and write: a {@link ByteBuf} whose index 0 is the first
 * byte of the span and whose capacity is {@link #length()}. Providers use absolute-index accessors
 * only ({@code getBytes/setBytes(index, ...)}), never reader/writer indices, and never release it.
 */
public final class Memory {
    private final Object source;
    private final ByteBuf view;
    private final ByteBuf retainable;
    private final boolean writable;

    private Memory(Object source, ByteBuf view, ByteBuf retainable, boolean writable) {
        this.source = source;
        this.view = view;
        this.retainable = retainable;
        this.writable = writable;
    }

    /** The whole array. */
    public static Memory of(byte[] array) {
        return of(array, 0, array.length);
    }

    /** {@code array[offset, offset+length)}. */
    public static Memory of(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, array.length);
        requirePositive(length);
        return new Memory(array, Unpooled.wrappedBuffer(array, offset, length), null, true);
    }

    /** The buffer's whole capacity (position and limit are ignored and left untouched). */
    public static Memory of(ByteBuffer buffer) {
        return of(buffer, 0, buffer.capacity());
    }

    /** {@code buffer[offset, offset+length)} in absolute indices. */
    public static Memory of(ByteBuffer buffer, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, buffer.capacity());
        requirePositive(length);
        ByteBuffer dup = buffer.duplicate();
        dup.clear().position(offset).limit(offset + length);
        return new Memory(buffer, Unpooled.wrappedBuffer(dup.slice()), null, !buffer.isReadOnly());
    }

    /** The buffer's whole capacity. Registration retains {@code buf} until the region is closed. */
    public static Memory of(ByteBuf buf) {
        return of(buf, 0, buf.capacity());
    }

    /** {@code buf[index, index+length)} in absolute indices. */
    public static Memory of(ByteBuf buf, int index, int length) {
        Objects.checkFromIndexSize(index, length, buf.capacity());
        requirePositive(length);
        return new Memory(buf, buf.slice(index, length), buf, !buf.isReadOnly());
    }

    private static void requirePositive(int length) {
        if (length == 0) {
            throw new IllegalArgumentException("cannot register zero bytes");
        }
    }

    /** Provider view: index 0 is the first byte of the span, capacity {@link #length()}. */
    public ByteBuf view() {
        return view;
    }

    /** Number of bytes. */
    public int length() {
        return view.capacity();
    }

    /** The array, ByteBuffer or ByteBuf this span was made from. */
    public Object source() {
        return source;
    }

    /** False for read-only buffers, which cannot be registered with LOCAL_WRITE. */
    public boolean isWritable() {
        return writable;
    }

    void retain() {
        if (retainable != null) {
            retainable.retain();
        }
    }

    void release() {
        if (retainable != null) {
            retainable.release();
        }
    }
}
