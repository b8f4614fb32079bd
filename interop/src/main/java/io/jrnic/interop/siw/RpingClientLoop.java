package io.jrnic.interop.siw;

/**
 * The guest's {@code rping -c -C 1} clients, one after another, for jrnic cases that serve one client per case.
 *
 * <p>siw's {@code rping -c} often hangs after a connection the server broke on purpose, so each client is killed
 * after a cap. It is killed sooner once its connection is over: the guest kernel has made an active open since the
 * client started ({@code ActiveOpens} of {@code /proc/net/snmp} went up: siw's kernel socket connected) and, on two
 * polls in a row, no socket to the port is left in any state but TIME-WAIT. A socket that is gone can put nothing
 * more on the wire, and {@code -C 1} opens no second one, so the kill cannot change what the server observes. A
 * client that never connected is only killed at the cap. (The conform responder runs met this on 12 of 38 cases,
 * each waiting out the whole cap after a connection of 17 ms.)
 */
final class RpingClientLoop {
    /** Seconds between polls of the client. */
    static final double POLL_SECONDS = 0.2;

    private RpingClientLoop() {
    }

    /** The loop as a POSIX shell script (the guest's busybox sh), reading the kernel's counters from {@code snmp}. */
    static String script(String host, int port, int capSeconds, String snmp) {
        int polls = (int) Math.round(capSeconds / POLL_SECONDS);
        String opens = "$(awk '/^Tcp:/ {n++; if (n == 2) print $6}' " + snmp + ")";
        return "while :; do a=" + opens + "; rping -c -a " + host + " -p " + port + " -C 1 >/dev/null 2>&1 & pid=$!;"
                + " i=0; gone=0; while kill -0 $pid 2>/dev/null && [ $i -lt " + polls + " ]; do sleep " + POLL_SECONDS
                + "; i=$((i+1)); if [ \"" + opens + "\" != \"$a\" ] && [ -z \"$(ss -Htn exclude time-wait dport = :"
                + port + ")\" ]; then gone=$((gone+1)); [ $gone -ge 2 ] && break; else gone=0; fi; done;"
                + " kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; sleep 0.3; done";
    }

    /** {@link #script} on the guest's own counters. */
    static String script(String host, int port, int capSeconds) {
        return script(host, port, capSeconds, "/proc/net/snmp");
    }
}
