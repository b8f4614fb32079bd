package io.jrnic.interop.decode;

/**
 * One finding of a check.
 *
 * @param check        which check
 * @param stream       MPA stream index, or -1 when not tied to a stream
 * @param dir          direction, or null
 * @param frame        pcap frame number where it was seen, or -1
 * @param streamOffset byte offset in the direction's FPDU stream (0 = first byte after the set-up frame), or -1
 * @param detail       what exactly was wrong
 */
public record Violation(Check check, int stream, Direction dir, long frame, long streamOffset, String detail) {
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(check.severity().name()).append(' ').append(check.name());
        if (stream >= 0) {
            b.append(" stream ").append(stream);
        }
        if (dir != null) {
            b.append(' ').append(dir.label());
        }
        if (frame >= 0) {
            b.append(" frame ").append(frame);
        }
        if (streamOffset >= 0) {
            b.append(" offset ").append(streamOffset);
        }
        return b.append(": ").append(detail).append(" [").append(check.rule()).append(']').toString();
    }
}
