package io.jrnic.cli.perf;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One perf buffer of {@link #size()} bytes, a heap {@code byte[]} or direct memory ({@link MemoryKind}), registered
 * as a whole. {@link #getAcquire} is the read a latency loop polls with for the byte the peer places last.
 */
abstract sealed class PerfBuffer permits PerfBuffer.Heap, PerfBuffer.Direct {
    final int size;
    /** {@code [0, size)} as a ByteBuffer (the array wrapped, or the direct memory itself); absolute access only. */
    final ByteBuffer bytes;

    private PerfBuffer(int size, ByteBuffer bytes) {
        this.size = size;
        this.bytes = bytes;
    }

    static PerfBuffer allocate(MemoryKind kind, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("buffer size " + size);
        }
        return kind == MemoryKind.HEAP ? new Heap(size) : new Direct(size);
    }

    int size() {
        return size;
    }

    abstract MemoryRegion register(ProtectionDomain pd, Access... access);

    abstract byte getAcquire(int i);

    byte get(int i) {
        return bytes.get(i);
    }

    void set(int i, byte v) {
        bytes.put(i, v);
    }

    /** Writes the {@link Pattern} into {@code [off, off+len)}. */
    void fill(int off, int len) {
        Pattern.fill(bytes, off, len);
    }

    /** Null when {@code [off, off+len)} holds the {@link Pattern}, else the first mismatch. */
    String check(String what, int off, int len) {
        return Pattern.check(what, bytes, off, len);
    }

    /** Whether both buffers hold the same bytes. */
    boolean sameBytes(PerfBuffer o) {
        return bytes.equals(o.bytes);
    }

    static final class Heap extends PerfBuffer {
        private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);
        private final byte[] array;

        private Heap(int size) {
            this(new byte[size]);
        }

        private Heap(byte[] array) {
            super(array.length, ByteBuffer.wrap(array));
            this.array = array;
        }

        @Override
        MemoryRegion register(ProtectionDomain pd, Access... access) {
            return pd.register(array, access);
        }

        @Override
        byte getAcquire(int i) {
            return (byte) BYTES.getAcquire(array, i);
        }
    }

    /**
     * Direct memory, 4-byte aligned and rounded up to a multiple of 4 bytes, of which the first {@code size} are
     * registered: {@link #getAcquire} reads the aligned int that holds the byte (a byte buffer view has no byte
     * access mode with memory ordering).
     */
    static final class Direct extends PerfBuffer {
        private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
        private static final boolean LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        private final ByteBuffer whole;

        private Direct(int size) {
            this(size, ByteBuffer.allocateDirect(((size + 3) & ~3) + 3).alignedSlice(4));
        }

        private Direct(int size, ByteBuffer whole) {
            super(size, whole.slice(0, size));
            this.whole = whole;
        }

        @Override
        MemoryRegion register(ProtectionDomain pd, Access... access) {
            return pd.register(Memory.of(whole, 0, size), access);
        }

        @Override
        byte getAcquire(int i) {
            int word = (int) INTS.getAcquire(whole, i & ~3);
            int shift = LITTLE ? (i & 3) * 8 : (3 - (i & 3)) * 8;
            return (byte) (word >>> shift);
        }
    }
}
