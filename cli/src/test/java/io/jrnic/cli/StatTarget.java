package io.jrnic.cli;

import io.jrnic.cli.perf.Rping;
import io.jrnic.verbs.ConnectOptions;
import java.net.InetSocketAddress;

/** A JVM for StatCommandTest to attach to: an rping server and client pinging over loopback for up to 30 s; "ready PID" once they ping. */
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
            awaitPings();
            System.out.println("ready " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes our stdin
            }
        }
        System.exit(0);
    }

    /** Until a device's MBean counts a SEND (the pings run; bounded by the test's timeout). */
    private static void awaitPings() throws Exception {
        javax.management.MBeanServer mbs = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName devices = new javax.management.ObjectName("io.jrnic:type=Device,*");
        while (true) {
            for (javax.management.ObjectName n : mbs.queryNames(devices, null)) {
                try {
                    if (((Number) mbs.getAttribute(n, "txMessages.SEND")).longValue() > 0) {
                        return;
                    }
                } catch (javax.management.AttributeNotFoundException notYet) {
                    // no SEND counted yet
                }
            }
            Thread.sleep(10);
        }
    }
}
