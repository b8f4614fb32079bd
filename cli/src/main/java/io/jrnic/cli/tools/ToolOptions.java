package io.jrnic.cli.tools;

import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.RtrType;
import java.time.Duration;
import picocli.CommandLine.Option;

/** jrnic-only options shared by the tool commands (the originals leave these to the stack). */
public final class ToolOptions {
    @Option(names = "--crc", description = "request MPA CRC (siw's default is off)")
    boolean crc;

    @Option(names = "--first-fpdu-delay-ms", paramLabel = "MS", defaultValue = "0",
            description = "initiator pause after the MPA Reply before its first FPDU (siw responder race; default 0)")
    long firstFpduDelayMs;

    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "60",
            description = "cap on each wait: for the peer to connect, and without progress (default 60)")
    long maxSeconds;

    @Option(names = "--no-p2p", description = "tools whose responder sends first: do not offer MPA peer-to-peer (RTR)")
    boolean noP2p;

    @Option(names = "--capture", paramLabel = "FILE", description = "write a pcap of the connection to FILE (server: of every accepted connection, FILE, FILE-2...)")
    java.nio.file.Path capture;

    /** MPA rev 2, no markers, CRC as asked, IRD/ORD {@code irdOrd}; the client's connection captured when asked. */
    ConnectOptions connectOptions(int irdOrd) {
        return ConnectOptions.defaults().crc(crc).ird(irdOrd).ord(irdOrd)
                .firstFpduDelay(Duration.ofMillis(firstFpduDelayMs)).capture(capture);
    }

    /**
     * As {@link #connectOptions(int)}, plus peer-to-peer mode offering a zero-length Write or Read RTR
     * (RFC 6581) unless --no-p2p: a responder may only send after the initiator's first FPDU (RFC 5044
     * section 7.1), so tools whose server sends first need the RTR; a peer without P2P falls back to none.
     */
    ConnectOptions responderSendsFirst(int irdOrd) {
        ConnectOptions o = connectOptions(irdOrd);
        return noP2p ? o : o.peerToPeer(RtrType.WRITE, RtrType.READ);
    }
}
