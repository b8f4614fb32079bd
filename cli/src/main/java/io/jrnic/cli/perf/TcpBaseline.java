package io.jrnic.cli.perf;

/** What each row's raw-TCP side runs: nothing ({@code --no-tcp}), a plain stream, or one that also does MPA's CRC. */
public enum TcpBaseline {
    NONE,
    /** java.nio on a plain stream (the default). */
    PLAIN,
    /** Bandwidth rows carry a CRC32C per MULPDU of payload, made and checked as MPA does ({@code --tcp-crc}, {@link TcpCrcStream}). */
    CRC;

    public boolean on() {
        return this != NONE;
    }
}
