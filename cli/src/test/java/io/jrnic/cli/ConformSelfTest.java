package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.Rping;
import io.jrnic.cli.perf.RpingPersistentServer;
import io.jrnic.conform.CaseResult;
import io.jrnic.conform.Catalogue;
import io.jrnic.conform.ConformCase;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.ConformRunner;
import io.jrnic.conform.Role;
import io.jrnic.conform.Target;
import io.jrnic.conform.Verdict;
import io.jrnic.conform.report.JsonReport;
import io.jrnic.conform.report.JunitReport;
import io.jrnic.conform.report.PcapReport;
import io.jrnic.conform.report.TextReport;
import io.jrnic.interop.pcap.PcapReader;
import io.jrnic.verbs.ConnectOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * jrnic conform against jrnic itself, in both roles: the initiator role against {@code rping -s -P}
 * (RpingPersistentServer), the responder role against {@code rping -c} started before each case. Every
 * case must PASS, except the few listed with their reasons in conform-expected-jrnic.txt.
 */
class ConformSelfTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /**
     * The MPA set-up timeouts of the jrnic under test, shorter than their defaults (Request 5 s, Reply 10 s) so that
     * the stall cases ({@code mpa.request.stall.*}, {@code mpa.reply.stall.*}: the target drops a peer that stops
     * mid-set-up, within the run's stall timeout) do not wait for the defaults; no other case comes near them (the
     * conform side sends its Request and Reply at once). The same timer acts at any value: rnic-soft's
     * ConnectTest and SlowPeerTest use 200-300 ms.
     */
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(3);

    @Test
    void initiatorRoleAgainstJrnicRpingServerMatchesTheExpectedVerdicts() throws Exception {
        List<CaseResult> results = againstServer(ConnectOptions.defaults().mpaRequestTimeout(SETUP_TIMEOUT), List.of());
        assertTrue(results.size() > 100, "catalogue size " + results.size());
        assertVerdicts(results);
        assertReportsAreWellFormed(results);
    }

    @Test
    void markerCaseAgainstAServerThatAsksForMarkersPasses() throws Exception {
        List<CaseResult> results = againstServer(ConnectOptions.defaults().markers(true), List.of("mpa.markers.*"));
        assertEquals(1, results.size());
        assertEquals(Verdict.PASS, results.get(0).verdict(), results.get(0).reason());
    }

    @Test
    void framingCasesWithCrcAskedPass() throws Exception {
        List<CaseResult> results = againstServer(ConnectOptions.defaults(), List.of("mpa.segments.*", "mpa.crc.*",
                "mpa.pad.*", "ddp.segments.*"), true);
        assertTrue(results.size() >= 12, "cases " + results.size());
        for (CaseResult r : results) {
            assertEquals(Verdict.PASS, r.verdict(), r.conformCase().id() + ": " + r.reason());
        }
    }

    @Test
    void responderRoleAgainstJrnicRpingClientPassesEveryCase() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            port = s.getLocalPort();
        }
        InetSocketAddress addr = new InetSocketAddress(LOOPBACK, port);
        AtomicReference<Thread> client = new AtomicReference<>();
        Target clientPerCase = new Target() {
            @Override
            public void before(ConformCase c) {
                Thread t = new Thread(() -> {
                    try {
                        Rping.client("soft", addr, 1, 64, false, null,
                                ConnectOptions.defaults().mpaReplyTimeout(SETUP_TIMEOUT), 30);
                    } catch (Exception expected) {
                        // most cases end the client's connection on purpose
                    }
                }, "rping-client-" + c.id());
                t.setDaemon(true);
                t.start();
                client.set(t);
            }

            @Override
            public void after(ConformCase c) throws Exception {
                client.get().join(40_000);
            }
        };
        ConformOptions o = new ConformOptions(null, port, false, Duration.ofSeconds(3), Duration.ofSeconds(15),
                Duration.ofSeconds(20));
        List<CaseResult> results = new ConformRunner(o, clientPerCase).run(Role.RESPONDER,
                Catalogue.select(Role.RESPONDER, List.of()), r -> System.out.println(TextReport.line(r)));
        assertTrue(results.size() >= 40, "catalogue size " + results.size());
        for (CaseResult r : results) {
            assertEquals(Verdict.PASS, r.verdict(), r.conformCase().id() + ": " + r.reason());
        }
    }

    private static List<CaseResult> againstServer(ConnectOptions server, List<String> only) throws Exception {
        return againstServer(server, only, false);
    }

    private static List<CaseResult> againstServer(ConnectOptions server, List<String> only, boolean crc) throws Exception {
        try (RpingPersistentServer s = new RpingPersistentServer("soft", new InetSocketAddress(LOOPBACK, 0), 64, server)) {
            Thread serving = new Thread(() -> {
                try {
                    s.serve(60, 0, null, new PrintWriter(new StringWriter()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "rping-server");
            serving.setDaemon(true);
            serving.start();
            ConformOptions o = ConformOptions.initiator(new InetSocketAddress(LOOPBACK, s.localAddress().getPort()))
                    .withTimeout(Duration.ofSeconds(3)).withStallTimeout(Duration.ofSeconds(12)).withCrc(crc);
            return new ConformRunner(o, Target.NONE).run(Role.INITIATOR, Catalogue.select(Role.INITIATOR, only),
                    r -> System.out.println(TextReport.line(r)));
        }
    }

    private static void assertVerdicts(List<CaseResult> results) throws Exception {
        Map<String, String> expected = new HashMap<>();
        try (InputStream in = ConformSelfTest.class.getResourceAsStream("/conform-expected-jrnic.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                if (!l.isEmpty() && !l.startsWith("#")) {
                    String[] f = l.split("\\s+");
                    expected.put(f[0], f[1]);
                }
            }
        }
        List<String> diffs = new ArrayList<>();
        for (CaseResult r : results) {
            String want = expected.getOrDefault(r.conformCase().id(), "PASS");
            if (!want.equals(r.verdict().name())) {
                diffs.add(r.conformCase().id() + ": " + r.verdict() + " (" + r.reason() + "), expected " + want);
            }
        }
        assertTrue(diffs.isEmpty(), String.join("\n", diffs));
    }

    private static void assertReportsAreWellFormed(List<CaseResult> results) throws Exception {
        StringWriter json = new StringWriter();
        JsonReport.write("loopback", "INITIATOR", results, json);
        assertTrue(json.toString().contains("\"id\":\"ddp.msn.0\",\"verdict\":\"PASS\""), "JSON names each case");
        StringWriter xml = new StringWriter();
        JunitReport.write("jrnic conform", results, xml);
        assertTrue(xml.toString().contains("tests=\"" + results.size() + "\""), xml.toString().substring(0, 200));
        javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)));
        ByteArrayOutputStream pcap = new ByteArrayOutputStream();
        PcapReport.write(results, pcap);
        int packets = 0;
        try (PcapReader r = new PcapReader(new ByteArrayInputStream(pcap.toByteArray()), "conform.pcap")) {
            while (r.next() != null) {
                packets++;
            }
        }
        assertTrue(packets > results.size() * 3, packets + " packets for " + results.size() + " cases");
    }
}
