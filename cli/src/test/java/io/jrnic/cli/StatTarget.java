package io.jrnic.cli;

import io.jrnic.cli.perf.Rping;
import io.jrnic.verbs.ConnectOptions;
import java.net.InetSocketAddress;

/** A JVM for StatCommandTest to attach to: an rping server and client pinging over loopback for up to 30 s. */
public final class StatTarget {
    public static void main(String[] args) throws Exception {
        try (Rping.Server s = new Rping.Server("soft", new InetSocketAddress("127.0.0.1", 0), 64,
                ConnectOptions.defaults().crc(true))) {
            Thread server = new Thread(() -> {
                try {
                    s.serve(30, null);
                } catch (Exception e) {
                    // the test ends this JVM
                }
            });
            server.setDaemon(true);
            server.start();
            Thread client = new Thread(() -> {
                try {
                    Rping.client("soft", s.localAddress(), 0, 64, true, null, ConnectOptions.defaults().crc(true), 30);
                } catch (Exception e) {
                    // the test ends this JVM
                }
            });
            client.setDaemon(true);
            client.start();
            System.out.println("ready " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes our stdin
            }
        }
        System.exit(0);
    }
}
