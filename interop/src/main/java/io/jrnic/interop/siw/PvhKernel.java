package io.jrnic.interop.siw;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * The guest's kernel as an uncompressed ELF that QEMU starts at its PVH entry point ({@code -kernel vmlinux}), made
 * once from the image's bzImage and kept next to it (made again if the bzImage is newer). Under TCG a bzImage spends about 4 s of every boot in the
 * BIOS and in decompressing itself (XZ); the PVH entry skips both (interop/README.md, "Boot time").
 *
 * <p>The payload is found by the x86 boot protocol's setup header (Documentation/arch/x86/boot.rst: setup_sects at
 * 0x1f1, payload_offset and payload_length at 0x248, version 2.08 and later) and decompressed by its magic: XZ by the
 * {@code xz} tool (Debian's kernels; xz-utils is in every Debian system), gzip by the JDK. The result is kept only
 * if it is a whole ELF64 image with the PVH entry note (an ELF note named "Xen" of type 18,
 * XEN_ELFNOTE_PHYS32_ENTRY); otherwise, or with {@code -Djrnic.siw.pvh=false}, the guest boots the bzImage as before.
 */
final class PvhKernel {
    static final String FILE = "vmlinux";
    /** XEN_ELFNOTE_PHYS32_ENTRY: the 32-bit entry point a PVH loader jumps to. */
    static final int PHYS32_ENTRY = 18;
    private static final int PT_NOTE = 4;

    private PvhKernel() {
    }

    /** The kernel to boot for {@code image}: its PVH ELF, made now if need be, else its bzImage. */
    static Path forBoot(SiwImage image) {
        if (!Boolean.parseBoolean(System.getProperty("jrnic.siw.pvh", "true"))) {
            return image.kernel();
        }
        Path elf = image.dir().resolve(FILE);
        try {
            if (!isPvhElf(elf) || olderThan(elf, image.kernel())) {
                extract(image.kernel(), elf); // keeps only a PVH ELF, else throws
            }
            return elf;
        } catch (IOException e) {
            return image.kernel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return image.kernel();
        }
    }

    /** A kernel made from an earlier bzImage (one replaced in an image directory given by hand) is made again. */
    private static boolean olderThan(Path made, Path from) throws IOException {
        return Files.getLastModifiedTime(made).compareTo(Files.getLastModifiedTime(from)) < 0;
    }

    /**
     * Decompresses {@code bzImage}'s payload into {@code out} (written beside it under another name and moved into
     * place, so concurrent callers never see half a file). Leaves {@code out} alone when the result is not a PVH ELF.
     */
    static void extract(Path bzImage, Path out) throws IOException, InterruptedException {
        ByteBuffer setup = read(bzImage, 0, 0x250);
        if (setup.remaining() < 0x250 || setup.getInt(0x202) != 0x53726448 /* "HdrS" */
                || (setup.getShort(0x206) & 0xffff) < 0x0208) {
            throw new IOException(bzImage + ": not a bzImage of boot protocol 2.08 or later");
        }
        int setupSects = setup.get(0x1f1) & 0xff;
        long payload = (long) ((setupSects == 0 ? 4 : setupSects) + 1) * 512 + (setup.getInt(0x248) & 0xffffffffL);
        long length = setup.getInt(0x24c) & 0xffffffffL;
        if (length > Integer.MAX_VALUE) {
            throw new IOException(bzImage + ": payload of " + length + " octets");
        }
        ByteBuffer packed = read(bzImage, payload, (int) length); // a few MiB, once per image
        Path tmp = Files.createTempFile(out.getParent(), FILE + ".", ".part");
        try {
            if (startsWith(packed, 0xfd, '7', 'z', 'X', 'Z', 0)) {
                xz(packed, tmp);
            } else if (startsWith(packed, 0x1f, 0x8b)) {
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(packed.array(), 0, packed.limit()))) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                throw new IOException(bzImage + ": payload compression not handled (neither XZ nor gzip)");
            }
            if (!isPvhElf(tmp)) {
                throw new IOException(bzImage + ": the decompressed kernel has no PVH entry note");
            }
            if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void xz(ByteBuffer packed, Path out) throws IOException, InterruptedException {
        // the payload ends with the kernel's size (4 octets) after the XZ stream: --single-stream ignores it
        Process p = new ProcessBuilder("xz", "--decompress", "--stdout", "--single-stream")
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream stdin = p.getOutputStream()) {
            stdin.write(packed.array(), 0, packed.limit());
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("xz did not finish in 120 s");
        }
        if (p.exitValue() != 0) {
            throw new IOException("xz exited " + p.exitValue());
        }
    }

    /**
     * True when {@code elf} is a whole little-endian ELF64 file (every segment's octets present) with a
     * PT_NOTE that holds the note "Xen" / {@value #PHYS32_ENTRY}.
     */
    static boolean isPvhElf(Path elf) throws IOException {
        if (!Files.isRegularFile(elf)) {
            return false;
        }
        long size = Files.size(elf);
        ByteBuffer h = read(elf, 0, 64);
        if (h.remaining() < 64 || h.getInt(0) != 0x464c457f || h.get(4) != 2 || h.get(5) != 1) {
            return false;
        }
        long phoff = h.getLong(0x20);
        int phentsize = h.getShort(0x36) & 0xffff;
        int phnum = h.getShort(0x38) & 0xffff;
        if (phentsize < 56 || phoff + (long) phentsize * phnum > size) {
            return false;
        }
        boolean pvh = false;
        for (int i = 0; i < phnum; i++) {
            ByteBuffer ph = read(elf, phoff + (long) i * phentsize, 56);
            int type = ph.getInt(0);
            long offset = ph.getLong(8);
            long filesz = ph.getLong(0x20);
            if (offset < 0 || filesz < 0 || offset + filesz > size) {
                return false;
            }
            if (type == PT_NOTE && filesz <= 1 << 20) {
                pvh |= hasPhys32Entry(read(elf, offset, (int) filesz));
            }
        }
        return pvh;
    }

    /** Walks the notes of one PT_NOTE segment (namesz, descsz, type, name and desc each padded to 4 octets). */
    static boolean hasPhys32Entry(ByteBuffer notes) {
        int at = 0;
        while (at + 12 <= notes.limit()) {
            int namesz = notes.getInt(at);
            int descsz = notes.getInt(at + 4);
            int type = notes.getInt(at + 8);
            int name = at + 12;
            if (namesz < 0 || descsz < 0 || name + pad4(namesz) + pad4(descsz) > notes.limit()) {
                return false;
            }
            if (type == PHYS32_ENTRY && namesz == 4 && notes.get(name) == 'X' && notes.get(name + 1) == 'e'
                    && notes.get(name + 2) == 'n' && notes.get(name + 3) == 0) {
                return true;
            }
            at = name + pad4(namesz) + pad4(descsz);
        }
        return false;
    }

    private static int pad4(int n) {
        return (n + 3) & ~3;
    }

    private static boolean startsWith(ByteBuffer b, int... bytes) {
        if (b.remaining() < bytes.length) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if ((b.get(i) & 0xff) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** Up to {@code length} octets of {@code file} from {@code offset}, little-endian, limit at what was read. */
    private static ByteBuffer read(Path file, long offset, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
                // until full or end of file
            }
        }
        return b.flip();
    }
}
