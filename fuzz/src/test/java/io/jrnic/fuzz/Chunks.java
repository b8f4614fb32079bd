package io.jrnic.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Fuzzer-chosen cut points for feeding a byte stream in chunks, as TCP reads would. */
final class Chunks {
    static final int MAX_CUTS = 8;
    private static final byte GUARD = (byte) 0xA5;

    private Chunks() {
    }

    /** Reads a count (0..8) and that many chunk sizes (u16 each, 0 allowed: an empty read). */
    static int[] readSizes(FuzzInput in) {
        int[] sizes = new int[in.u8() % (MAX_CUTS + 1)];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = in.u16();
        }
        return sizes;
    }

    static SeedWriter writeSizes(SeedWriter w, int... sizes) {
        w.u8(sizes.length);
        for (int s : sizes) {
            w.u16(s);
        }
        return w;
    }

    /** The stream cut by the sizes; whatever is left is one last chunk. Empty chunks are kept. */
    static List<byte[]> split(byte[] stream, int[] sizes) {
        List<byte[]> out = new ArrayList<>();
        int at = 0;
        for (int s : sizes) {
            int n = Math.min(s, stream.length - at);
            out.add(Arrays.copyOfRange(stream, at, at + n));
            at += n;
        }
        if (at < stream.length || out.isEmpty()) {
            out.add(Arrays.copyOfRange(stream, at, stream.length));
        }
        return out;
    }

    /**
     * The chunk as the readable bytes of a buffer with guard bytes before the reader index and
     * after the writer index, so that a read outside the readable range changes what is decoded.
     */
    static ByteBuf guarded(byte[] chunk, int before, int after) {
        byte[] all = new byte[before + chunk.length + after];
        Arrays.fill(all, GUARD);
        System.arraycopy(chunk, 0, all, before, chunk.length);
        return Unpooled.wrappedBuffer(all).setIndex(before, before + chunk.length);
    }
}
