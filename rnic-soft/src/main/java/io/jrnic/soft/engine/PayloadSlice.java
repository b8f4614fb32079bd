package io.jrnic.soft.engine;

import io.netty.buffer.AbstractReferenceCountedByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * A zero-copy payload segment as the channel writes it: a read-only view of {@code length} octets of registered
 * memory at {@code index}, reused instead of a {@code retainedSlice} per FPDU (which allocates a slice object for
 * every memory kind but Netty's pooled buffers). The view keeps the memory retained while the channel holds it; the
 * channel's release (once the bytes left the outbound buffer, or the write failed) gives the memory back and makes
 * the view free again, which {@link TxWire} sees ({@link #free()}) and reuses. Gathering writes see the memory
 * itself: its address ({@code writev} on epoll, nothing allocated) or its NIO buffer (the NIO transport, off Linux:
 * a new {@code ByteBuffer} duplicate per write, as for Netty's own slices). Each view writes only its own fields; the
 * release may run on the event loop without the QP's token, so {@link #free} is volatile and written last.
 */
final class PayloadSlice extends AbstractReferenceCountedByteBuf {
    private ByteBuf memory;
    private int index;
    /** True while no channel holds the view (also before its first use). */
    private volatile boolean free = true;

    PayloadSlice() {
        super(0);
        setRefCnt(0);
    }

    boolean free() {
        return free;
    }

    /** Makes this free view {@code memory[index, index + length)}, retaining the memory; one reference. */
    PayloadSlice wrap(ByteBuf memory, int index, int length) {
        memory.retain();
        this.memory = memory;
        this.index = index;
        free = false;
        maxCapacity(length);
        setIndex(0, length);
        resetRefCnt();
        return this;
    }

    @Override
    protected void deallocate() {
        ByteBuf m = memory;
        memory = null;
        m.release();
        free = true;
    }

    private int at(int i) {
        return index + i;
    }

    // ---------------------------------------------------------------- what the transports use

    @Override
    public int capacity() {
        return maxCapacity();
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBufAllocator alloc() {
        return memory.alloc();
    }

    @Override
    @Deprecated
    public ByteOrder order() {
        return ByteOrder.BIG_ENDIAN;
    }

    @Override
    public ByteBuf unwrap() {
        return memory;
    }

    @Override
    public boolean isDirect() {
        return memory.isDirect();
    }

    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public boolean isContiguous() {
        return true;
    }

    @Override
    public int nioBufferCount() {
        return 1;
    }

    @Override
    public ByteBuffer nioBuffer(int i, int length) {
        checkIndex(i, length);
        return memory.nioBuffer(at(i), length);
    }

    @Override
    public ByteBuffer internalNioBuffer(int i, int length) {
        checkIndex(i, length);
        return memory.nioBuffer(at(i), length);
    }

    @Override
    public ByteBuffer[] nioBuffers(int i, int length) {
        return new ByteBuffer[] {nioBuffer(i, length)};
    }

    @Override
    public boolean hasArray() {
        return memory.hasArray();
    }

    @Override
    public byte[] array() {
        return memory.array();
    }

    @Override
    public int arrayOffset() {
        return memory.arrayOffset() + index;
    }

    @Override
    public boolean hasMemoryAddress() {
        return memory.hasMemoryAddress();
    }

    @Override
    public long memoryAddress() {
        return memory.memoryAddress() + index;
    }

    // ---------------------------------------------------------------- reads (delegated)

    @Override
    protected byte _getByte(int i) {
        return memory.getByte(at(i));
    }

    @Override
    protected short _getShort(int i) {
        return memory.getShort(at(i));
    }

    @Override
    protected short _getShortLE(int i) {
        return memory.getShortLE(at(i));
    }

    @Override
    protected int _getUnsignedMedium(int i) {
        return memory.getUnsignedMedium(at(i));
    }

    @Override
    protected int _getUnsignedMediumLE(int i) {
        return memory.getUnsignedMediumLE(at(i));
    }

    @Override
    protected int _getInt(int i) {
        return memory.getInt(at(i));
    }

    @Override
    protected int _getIntLE(int i) {
        return memory.getIntLE(at(i));
    }

    @Override
    protected long _getLong(int i) {
        return memory.getLong(at(i));
    }

    @Override
    protected long _getLongLE(int i) {
        return memory.getLongLE(at(i));
    }

    @Override
    public ByteBuf getBytes(int i, ByteBuf dst, int dstIndex, int length) {
        checkIndex(i, length);
        memory.getBytes(at(i), dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int i, byte[] dst, int dstIndex, int length) {
        checkIndex(i, length);
        memory.getBytes(at(i), dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int i, ByteBuffer dst) {
        checkIndex(i, dst.remaining());
        memory.getBytes(at(i), dst);
        return this;
    }

    @Override
    public ByteBuf getBytes(int i, OutputStream out, int length) throws IOException {
        checkIndex(i, length);
        memory.getBytes(at(i), out, length);
        return this;
    }

    @Override
    public int getBytes(int i, GatheringByteChannel out, int length) throws IOException {
        checkIndex(i, length);
        return memory.getBytes(at(i), out, length);
    }

    @Override
    public int getBytes(int i, FileChannel out, long position, int length) throws IOException {
        checkIndex(i, length);
        return memory.getBytes(at(i), out, position, length);
    }

    @Override
    public ByteBuf copy(int i, int length) {
        checkIndex(i, length);
        return memory.copy(at(i), length);
    }

    // ---------------------------------------------------------------- writes: none (a payload being sent)

    @Override
    protected void _setByte(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setShort(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setShortLE(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setMedium(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setMediumLE(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setInt(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setIntLE(int i, int value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setLong(int i, long value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    protected void _setLongLE(int i, long value) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setBytes(int i, ByteBuf src, int srcIndex, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setBytes(int i, byte[] src, int srcIndex, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public ByteBuf setBytes(int i, ByteBuffer src) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public int setBytes(int i, InputStream in, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public int setBytes(int i, ScatteringByteChannel in, int length) {
        throw new ReadOnlyBufferException();
    }

    @Override
    public int setBytes(int i, FileChannel in, long position, int length) {
        throw new ReadOnlyBufferException();
    }
}
