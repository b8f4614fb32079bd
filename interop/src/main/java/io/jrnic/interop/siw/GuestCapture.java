package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A per-case tcpdump writing classic pcap, in immediate mode (without it libpcap holds packets in a
 * ring block until a 1 s timeout and loses the last ones at the end), each packet written at once
 * (-U), with a large kernel buffer. {@link #stop} ends it (SIGINT/SIGTERM, so the file is complete)
 * and leaves the file where asked; {@link #droppedByKernel()} tells whether the capture is complete.
 *
 * <p>Where it runs depends on the interface. The guest's eth0 is one end of a virtio-net link whose
 * other end is the host's tap: the tap carries the same frames (GSO aggregates included, QEMU hands them
 * over with their virtio header), so an "eth0" capture runs on the host, in the guest's namespace, on
 * the tap ({@link TapTcpdump}). There tcpdump runs natively; in the emulated guest it shared one TCG
 * vCPU with the traffic it watched and fell behind bursts (nvmf: 37 and 272 packets dropped in a CI
 * run). "lo" (siw to siw inside the guest) and "any" exist only in the guest ({@link InGuestTcpdump}).
 */
public final class GuestCapture {
    /** Whole packets, including 64 KiB GRO/GSO aggregates. */
    static final int SNAPLEN = 65600;
    /**
     * Kernel buffer: in immediate mode libpcap's ring has buffer/snaplen slots; 32 MiB gives about 500
     * (2 MiB and -s 0 gave 8 and dropped under TCG).
     */
    static final int BUFFER_KIB = 32768;
    static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(30);
    /** The line of tcpdump's exit report that says whether the capture is complete. */
    private static final Pattern DROPPED = Pattern.compile("(\\d+) packets? dropped by kernel");

    /** One running tcpdump. */
    interface Tcpdump {
        /** Ends it once the file has stopped growing, puts the file at {@code dest}; returns its exit report. */
        String stop(Path dest) throws IOException;

        /** Whether the file can still be had once the guest is gone. */
        boolean outlivesGuest();

        /** Ends it without keeping the file (idempotent). */
        void kill();
    }

    private final String name;
    private final String iface;
    private final Tcpdump tcpdump;
    private Path file;
    private String report;
    private boolean abandoned;

    private GuestCapture(String name, String iface, Tcpdump tcpdump) {
        this.name = name;
        this.iface = iface;
        this.tcpdump = tcpdump;
    }

    /**
     * Starts tcpdump for {@code iface} ("lo" carries siw-to-siw traffic inside the guest, "eth0" the
     * traffic with the host, "any" both as Linux cooked frames) with a pcap {@code filter} (may be
     * empty), and returns once tcpdump reports it is listening.
     */
    public static GuestCapture start(SiwGuest guest, String name, String iface, String filter) throws IOException {
        Tcpdump t = "eth0".equals(iface) ? TapTcpdump.start(guest, name, filter)
                : InGuestTcpdump.start(guest, name, iface, filter);
        return new GuestCapture(name, iface, t);
    }

    /** The options every capture runs with (the interface, file and filter follow). */
    static String options() {
        return "-Z root -U --immediate-mode -B " + BUFFER_KIB + " -n -s " + SNAPLEN;
    }

    public String name() {
        return name;
    }

    public String iface() {
        return iface;
    }

    /** Stops tcpdump (idempotent) and puts the capture at {@code dest}; returns {@code dest}. */
    public synchronized Path stop(Path dest) throws IOException {
        if (file == null) {
            report = tcpdump.stop(dest);
            file = dest;
        }
        return file;
    }

    /**
     * At the end of a case: a capture still running is stopped and kept at {@code dest} when its file can still
     * be had (a capture on the tap always, one in the guest while the guest lives), else ended ({@link #abandon}).
     */
    public synchronized void finish(SiwGuest guest, Path dest) throws IOException {
        if (stopped()) {
            return;
        }
        if (tcpdump.outlivesGuest() || guest.alive()) {
            stop(dest);
        } else {
            abandon();
        }
    }

    /** tcpdump's own report (packets captured / dropped by kernel), after {@link #stop}. */
    public synchronized String tcpdumpLog() {
        return report == null ? "" : report;
    }

    /** Packets the kernel dropped for tcpdump (from its exit report), or -1 if unknown / not stopped. */
    public long droppedByKernel() {
        return droppedIn(tcpdumpLog());
    }

    static long droppedIn(String tcpdumpReport) {
        Matcher m = DROPPED.matcher(tcpdumpReport);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** True once stopped (or abandoned). */
    public synchronized boolean stopped() {
        return file != null || abandoned;
    }

    /** There is no capture to keep (its guest is gone, or its case ended without one): tcpdump is ended. */
    public synchronized void abandon() {
        abandoned = true;
        tcpdump.kill();
    }
}
