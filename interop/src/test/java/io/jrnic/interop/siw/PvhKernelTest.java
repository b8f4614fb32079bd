package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PVH kernel made from a bzImage: synthetic images laid out as the x86 boot protocol and ELF say. */
class PvhKernelTest {
    @TempDir
    Path dir;

    @Test
    void aGzipPayloadBecomesThePvhElfItHolds() throws Exception {
        byte[] elf = elf(true);
        Path bz = write("vmlinuz", bzImage(gzip(elf)));
        Path out = dir.resolve(PvhKernel.FILE);
        PvhKernel.extract(bz, out);
        assertArrayEquals(elf, Files.readAllBytes(out));
        assertTrue(PvhKernel.isPvhElf(out));
    }

    @Test
    void anXzPayloadIsDecompressedByXzDespiteTheSizeAfterIt() throws Exception {
        byte[] elf = elf(true);
        byte[] xz;
        try {
            xz = xz(elf);
        } catch (IOException e) {
            Assumptions.abort("no xz here: " + e.getMessage());
            return;
        }
        Path bz = write("vmlinuz", bzImage(xz));
        Path out = dir.resolve(PvhKernel.FILE);
        PvhKernel.extract(bz, out);
        assertArrayEquals(elf, Files.readAllBytes(out));
    }

    @Test
    void anElfWithoutThePvhNoteIsNotKeptAndTheGuestBootsTheBzImage() throws Exception {
        Path bz = write("vmlinuz", bzImage(gzip(elf(false))));
        assertThrows(IOException.class, () -> PvhKernel.extract(bz, dir.resolve(PvhKernel.FILE)));
        assertEquals(bz, new SiwImage(dir).bootKernel());
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "nothing left beside the bzImage");
        }
    }

    @Test
    void aTruncatedElfIsNotAPvhElf() throws Exception {
        byte[] elf = elf(true);
        assertTrue(PvhKernel.isPvhElf(write("whole", elf)));
        assertFalse(PvhKernel.isPvhElf(write("cut", Arrays.copyOf(elf, elf.length - 1))));
        assertFalse(PvhKernel.isPvhElf(write("not-elf", new byte[elf.length])));
    }

    @Test
    void theImageBootsItsPvhElfMadeOnceAndKept() throws Exception {
        byte[] elf = elf(true);
        Path bz = write("vmlinuz", bzImage(gzip(elf)));
        Files.setLastModifiedTime(bz, FileTime.fromMillis(1_000_000));
        SiwImage image = new SiwImage(dir);
        Path first = image.bootKernel();
        assertEquals(dir.resolve(PvhKernel.FILE), first);
        FileTime made = FileTime.fromMillis(2_000_000);
        Files.setLastModifiedTime(first, made);
        assertEquals(first, image.bootKernel());
        assertEquals(made, Files.getLastModifiedTime(first), "kept, not made again");
        assertArrayEquals(elf, Files.readAllBytes(first));
    }

    @Test
    void aBzImageReplacedAfterItsElfWasMadeIsMadeAgain() throws Exception {
        Path bz = write("vmlinuz", bzImage(gzip(elf(true))));
        Files.setLastModifiedTime(bz, FileTime.fromMillis(1_000_000));
        SiwImage image = new SiwImage(dir);
        Path first = image.bootKernel();
        Files.setLastModifiedTime(first, FileTime.fromMillis(2_000_000));
        byte[] other = elf(true);
        other[other.length - 1] = 42; // another kernel
        write("vmlinuz", bzImage(gzip(other)));
        Files.setLastModifiedTime(bz, FileTime.fromMillis(3_000_000));
        assertArrayEquals(other, Files.readAllBytes(image.bootKernel()));
    }

    @Test
    void notANewEnoughBzImageIsRefused() throws Exception {
        byte[] bz = bzImage(gzip(elf(true)));
        ByteBuffer.wrap(bz).order(ByteOrder.LITTLE_ENDIAN).putShort(0x206, (short) 0x0207);
        Path path = write("vmlinuz", bz);
        assertThrows(IOException.class, () -> PvhKernel.extract(path, dir.resolve(PvhKernel.FILE)));
    }

    /** An ELF64 with a PT_NOTE (the "Xen" PHYS32_ENTRY note after another note, or only the other) and a PT_LOAD. */
    static byte[] elf(boolean pvh) {
        ByteBuffer notes = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        note(notes, "GNU", 3, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        if (pvh) {
            note(notes, "Xen", PvhKernel.PHYS32_ENTRY, new byte[] {0, 0, 0, 1});
        }
        notes.flip();
        int phoff = 64;
        int noteAt = phoff + 2 * 56;
        int loadAt = noteAt + notes.remaining();
        int loadLen = 100;
        ByteBuffer b = ByteBuffer.allocate(loadAt + loadLen).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 0x464c457f).put(4, (byte) 2).put(5, (byte) 1).put(6, (byte) 1);
        b.putShort(16, (short) 2).putShort(18, (short) 62).putLong(0x20, phoff).putShort(0x34, (short) 64)
                .putShort(0x36, (short) 56).putShort(0x38, (short) 2);
        b.putInt(phoff, 4).putLong(phoff + 8, noteAt).putLong(phoff + 0x20, notes.remaining())
                .putLong(phoff + 0x28, notes.remaining());
        b.putInt(phoff + 56, 1).putLong(phoff + 56 + 8, loadAt).putLong(phoff + 56 + 0x20, loadLen)
                .putLong(phoff + 56 + 0x28, loadLen);
        b.position(noteAt);
        b.put(notes);
        for (int i = 0; i < loadLen; i++) {
            b.put((byte) i);
        }
        return b.array();
    }

    private static void note(ByteBuffer b, String name, int type, byte[] desc) {
        b.putInt(name.length() + 1).putInt(desc.length).putInt(type);
        b.put(name.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).put((byte) 0);
        while (b.position() % 4 != 0) {
            b.put((byte) 0);
        }
        b.put(desc);
    }

    /**
     * A bzImage as the boot protocol lays it out: one setup sector after the boot sector, "HdrS" version 2.15, the
     * payload 16 octets into the protected-mode code, followed (as Linux builds it) by the uncompressed size.
     */
    static byte[] bzImage(byte[] payload) {
        int code = 2 * 512;
        ByteBuffer b = ByteBuffer.allocate(code + 16 + payload.length + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put(0x1f1, (byte) 1).putInt(0x202, 0x53726448).putShort(0x206, (short) 0x020f);
        b.putInt(0x248, 16).putInt(0x24c, payload.length);
        b.position(code + 16);
        b.put(payload).putInt(12345);
        return b.array();
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static byte[] xz(byte[] data) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("xz", "--compress", "--stdout", "--check=crc32").start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(data);
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IOException("xz exited " + p.exitValue());
        }
        return out;
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }
}
