package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The guest's serial console as QEMU writes it to a file: the kernel's messages, a panic among them. Read on
 * demand (QEMU appends; a reboot truncates the file), never held.
 */
final class GuestConsole {
    /** Lines that mean the guest kernel is dead. */
    private static final String[] DEATH_MARKERS = {"Kernel panic - not syncing", "end Kernel panic"};
    /** Lines of a failure excerpt at most. */
    private static final int EXCERPT_LINES = 120;

    private final Path file;

    GuestConsole(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** The whole console so far ("" before QEMU wrote any). */
    String text() {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last {@code lines} lines. */
    String tail(int lines) {
        String[] all = text().split("\r?\n");
        StringBuilder b = new StringBuilder();
        for (int i = Math.max(0, all.length - lines); i < all.length; i++) {
            b.append(all[i]).append('\n');
        }
        return b.toString();
    }

    /** The first death marker the console shows, or null while the kernel lives. */
    String deathMarker() {
        String text = text();
        for (String m : DEATH_MARKERS) {
            if (text.contains(m)) {
                return m;
            }
        }
        return null;
    }

    /**
     * The console for a failure report: from a few lines before the kernel's panic line to the end (a panic's
     * stack dump is longer than any fixed tail, so at most {@value #EXCERPT_LINES} lines), else the last 40 lines.
     */
    String failureExcerpt() {
        String text = text();
        int at = text.indexOf(DEATH_MARKERS[0]);
        if (at < 0) {
            return tail(40);
        }
        int start = at;
        for (int i = 0; i < 4 && start > 0; i++) {
            start = text.lastIndexOf('\n', start - 1);
        }
        String from = text.substring(Math.max(0, start));
        String[] lines = from.split("\r?\n");
        return lines.length <= EXCERPT_LINES ? from
                : String.join("\n", Arrays.copyOf(lines, EXCERPT_LINES)) + "\n[...]\n";
    }
}
