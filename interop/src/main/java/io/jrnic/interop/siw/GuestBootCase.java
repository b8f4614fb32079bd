package io.jrnic.interop.siw;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Case (a): the guest booted and siw is usable: {@code rdma link show} lists siw0 on eth0 in
 * state ACTIVE, {@code ibv_devices} lists siw0, {@code ibv_devinfo} reports the iWARP transport,
 * and for the PARAMS build every requested module parameter reads back as set.
 */
public final class GuestBootCase implements SiwCase {
    private final String name;
    private final GuestConfig config;

    public GuestBootCase(String name, GuestConfig config) {
        this.name = name;
        this.config = config;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "the " + config.variant().dir() + " siw guest boots and exposes siw0 (iWARP) on eth0 "
                + config.siwParams();
    }

    @Override
    public GuestConfig config() {
        return config;
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        Duration t = Duration.ofSeconds(30);
        String link = guest.exec("rdma link show", t).output();
        expect(failures, link.matches("(?s).*link siw0/1 state ACTIVE .*netdev eth0.*"), "rdma link show: " + link);
        String devices = guest.exec("ibv_devices", t).output();
        expect(failures, devices.contains("siw0"), "ibv_devices: " + devices);
        String info = guest.exec("ibv_devinfo -d siw0", t).output();
        expect(failures, info.matches("(?s).*transport:\\s+iWARP.*"), "ibv_devinfo: " + info);
        expect(failures, info.matches("(?s).*state:\\s+PORT_ACTIVE.*"), "port not active: " + info);
        for (String p : config.siwParams()) {
            String[] kv = p.split("=", 2);
            String actual = guest.exec("cat /sys/module/siw/parameters/" + kv[0], t).output().trim();
            expect(failures, normalize(actual).equals(normalize(kv[1])), "siw parameter " + kv[0] + " = " + actual
                    + ", wanted " + kv[1]);
        }
        String taint = guest.exec("cat /proc/sys/kernel/tainted; dmesg | grep -i siw | grep -v verification | grep -ci 'error\\|fail'", t)
                .output().trim().replace('\n', ' ');
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        String detail = failures.isEmpty()
                ? "siw0 ACTIVE on eth0, iWARP, params " + config.siwParams() + " (tainted/siw errors: " + taint + ")"
                : String.join("; ", failures);
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                elapsed, List.of());
    }

    private static String normalize(String v) {
        return switch (v) {
            case "Y", "1" -> "1";
            case "N", "0" -> "0";
            default -> v;
        };
    }

    static void expect(List<String> failures, boolean ok, String what) {
        if (!ok) {
            failures.add(what.strip());
        }
    }
}
