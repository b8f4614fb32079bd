package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * tcpdump inside the guest (for "lo" and "any"), writing /tmp/NAME.pcap there; {@link #stop} sends SIGINT
 * and copies the file out over the control channel. It runs as root (-Z root).
 */
final class InGuestTcpdump implements GuestCapture.Tcpdump {
    private final SiwGuest guest;
    private final String name;

    private InGuestTcpdump(SiwGuest guest, String name) {
        this.guest = guest;
        this.name = name;
    }

    static InGuestTcpdump start(SiwGuest guest, String name, String iface, String filter) throws IOException {
        InGuestTcpdump t = new InGuestTcpdump(guest, name);
        guest.startBackground(t.bg(), "exec tcpdump " + GuestCapture.options() + " -i " + SiwGuest.quote(iface)
                + " -w " + t.file() + " " + filter);
        Duration limit = GuestCapture.LISTEN_TIMEOUT;
        ExecResult listening = guest.exec("i=0; until grep -q 'listening on' /tmp/bg/" + t.bg() + ".log; do"
                + " [ $i -ge " + limit.toSeconds() * 10 + " ] && exit 1; [ -e /tmp/bg/" + t.bg()
                + ".rc ] && exit 2; sleep 0.1; i=$((i+1)); done", limit.plusSeconds(5));
        if (!listening.ok()) {
            ExecResult log = guest.stopBackground(t.bg(), "INT");
            throw new IOException("tcpdump did not start on " + iface + ": " + log.output());
        }
        return t;
    }

    private String bg() {
        return "cap-" + name;
    }

    private String file() {
        return "/tmp/" + name + ".pcap";
    }

    @Override
    public String stop(Path dest) throws IOException {
        // let the last segments (FIN/ACK) reach the file: wait until it stops growing (at most 5 s)
        guest.exec("i=0; a=-1; b=$(stat -c %s " + file() + "); while [ \"$a\" != \"$b\" ] && [ $i -lt 20 ]; do"
                + " sleep 0.25; a=$b; b=$(stat -c %s " + file() + "); i=$((i+1)); done", Duration.ofSeconds(15));
        ExecResult result = guest.stopBackground(bg(), "INT");
        guest.copyOut(file(), dest);
        guest.exec("rm -f " + file(), Duration.ofSeconds(10));
        return result.output();
    }

    @Override
    public boolean outlivesGuest() {
        return false;
    }

    @Override
    public void kill() {
        // the guest is gone or going: its tcpdump goes with it
    }
}
