package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A tcpdump running in the guest, writing classic pcap to /tmp/NAME.pcap. {@link #stop} ends it
 * (SIGINT, so the file is complete) and copies the file out. tcpdump runs as root (-Z root),
 * in immediate mode (without it libpcap holds packets in a ring block until a 1 s timeout and
 * loses the last ones on SIGINT), writing each packet at once (-U), with a large kernel buffer.
 * {@link #droppedByKernel()} tells whether the capture is complete.
 */
public final class GuestCapture {
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(30);
    /** Whole packets, including 64 KiB GRO/GSO aggregates. */
    static final int SNAPLEN = 65600;
    /**
     * Kernel buffer: in immediate mode libpcap's ring has buffer/snaplen slots, and under TCG
     * tcpdump falls behind a burst; 32 MiB gives about 500 slots (2 MiB and -s 0 gave 8 and dropped).
     */
    static final int BUFFER_KIB = 32768;

    private final SiwGuest guest;
    private final String name;
    private final String iface;
    private Path file;
    private ExecResult result;

    private GuestCapture(SiwGuest guest, String name, String iface) {
        this.guest = guest;
        this.name = name;
        this.iface = iface;
    }

    /**
     * Starts tcpdump on {@code iface} ("lo" carries siw-to-siw traffic inside the guest, "eth0" the
     * traffic with the host, "any" both as Linux cooked frames) with a pcap {@code filter} (may be
     * empty), and returns once tcpdump reports it is listening.
     */
    public static GuestCapture start(SiwGuest guest, String name, String iface, String filter) throws IOException {
        GuestCapture c = new GuestCapture(guest, name, iface);
        guest.startBackground(c.bg(), "exec tcpdump -Z root -U --immediate-mode -B " + BUFFER_KIB + " -n -s " + SNAPLEN + " -i " + SiwGuest.quote(iface) + " -w /tmp/"
                + name + ".pcap " + filter);
        ExecResult listening = guest.exec("i=0; until grep -q 'listening on' /tmp/bg/" + c.bg() + ".log; do"
                + " [ $i -ge " + LISTEN_TIMEOUT.toSeconds() * 10 + " ] && exit 1; [ -e /tmp/bg/" + c.bg()
                + ".rc ] && exit 2; sleep 0.1; i=$((i+1)); done", LISTEN_TIMEOUT.plusSeconds(5));
        if (!listening.ok()) {
            ExecResult log = guest.stopBackground(c.bg(), "INT");
            throw new IOException("tcpdump did not start on " + iface + ": " + log.output());
        }
        return c;
    }

    private String bg() {
        return "cap-" + name;
    }

    public String name() {
        return name;
    }

    public String iface() {
        return iface;
    }

    /** Stops tcpdump (idempotent) and copies the capture to {@code dest}; returns {@code dest}. */
    public synchronized Path stop(Path dest) throws IOException {
        if (file == null) {
            // let the last segments (FIN/ACK) reach the file: wait until it stops growing (at most 5 s)
            String f = "/tmp/" + name + ".pcap";
            guest.exec("i=0; a=-1; b=$(stat -c %s " + f + "); while [ \"$a\" != \"$b\" ] && [ $i -lt 20 ]; do"
                    + " sleep 0.25; a=$b; b=$(stat -c %s " + f + "); i=$((i+1)); done", Duration.ofSeconds(15));
            result = guest.stopBackground(bg(), "INT");
            file = guest.copyOut("/tmp/" + name + ".pcap", dest);
            guest.exec("rm -f /tmp/" + name + ".pcap", Duration.ofSeconds(10));
        }
        return file;
    }

    /** tcpdump's own report (packets captured / dropped by kernel), after {@link #stop}. */
    public String tcpdumpLog() {
        return result == null ? "" : result.output();
    }

    /** Packets the kernel dropped for tcpdump (from its exit report), or -1 if unknown / not stopped. */
    public long droppedByKernel() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) packets? dropped by kernel")
                .matcher(tcpdumpLog());
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** True once stopped (or abandoned). */
    public synchronized boolean stopped() {
        return file != null || abandoned;
    }

    private boolean abandoned;

    /** The guest that ran tcpdump is gone (rebooted): there is no capture to stop. */
    public synchronized void abandon() {
        abandoned = true;
    }
}
