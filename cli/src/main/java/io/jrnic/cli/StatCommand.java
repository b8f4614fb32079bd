package io.jrnic.cli;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic stat}: the counters of the jrnic devices and QPs of a running JVM, read from its
 * {@code io.jrnic} MBeans. A PID is reached through the Attach API (the JVM's local JMX connector,
 * started on demand: nothing to configure in the target, same user only); a {@code service:jmx:}
 * URL reaches a JVM that exports JMX remotely.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = {"Print the RNIC counters (and each connection's TCP figures) of a running JVM's jrnic devices and QPs.",
                "TARGET: a PID (Attach API, same user) or a JMX service URL; without TARGET, list local JVMs.",
                "Exit code: 0 done, 1 no jrnic MBeans in the target, 2 cannot attach or connect."})
public final class StatCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TARGET", description = "PID or service:jmx:... URL")
    String target;

    @Option(names = "--interval", paramLabel = "S", defaultValue = "0",
            description = "print every S seconds, with per-second rates (default 0: once)")
    long interval;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
            description = "with --interval: stop after N samples (default 0: until interrupted)")
    long count;

    @Option(names = "--all", description = "also print counters that are 0")
    boolean all;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (target == null) {
            for (VirtualMachineDescriptor d : VirtualMachine.list()) {
                out.printf("%-8s %s%n", d.id(), d.displayName());
            }
            return 0;
        }
        JMXServiceURL url;
        try {
            url = new JMXServiceURL(target.startsWith("service:jmx:") ? target : attach(target));
        } catch (Exception e) {
            err.println("jrnic stat: cannot attach to " + target + ": " + e);
            return 2;
        }
        try (JMXConnector c = JMXConnectorFactory.connect(url)) {
            MBeanServerConnection mbs = c.getMBeanServerConnection();
            Map<String, Long> previous = new HashMap<>();
            for (long n = 1; ; n++) {
                if (!print(mbs, out, previous)) {
                    err.println("jrnic stat: no io.jrnic MBeans in " + target);
                    return 1;
                }
                out.flush();
                if (interval <= 0 || (count > 0 && n >= count)) {
                    return 0;
                }
                Thread.sleep(interval * 1000);
            }
        } catch (java.io.IOException e) {
            err.println("jrnic stat: cannot connect to " + target + ": " + e);
            return 2;
        }
    }

    /** The local JMX connector address of JVM {@code pid}, started if it was not (Attach API). */
    private static String attach(String pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(pid);
        try {
            return vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
    }

    /** One sample: every io.jrnic MBean (devices first), its counters, and rates against the previous sample. */
    private boolean print(MBeanServerConnection mbs, PrintWriter out, Map<String, Long> previous) throws Exception {
        TreeSet<ObjectName> names = new TreeSet<>((a, b) -> {
            int d = a.getKeyProperty("type").compareTo(b.getKeyProperty("type")); // Device before QueuePair
            return d != 0 ? d : a.getCanonicalName().compareTo(b.getCanonicalName());
        });
        names.addAll(mbs.queryNames(new ObjectName("io.jrnic:*"), null));
        if (names.isEmpty()) {
            return false;
        }
        boolean rates = interval > 0 && !previous.isEmpty();
        out.println("# " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + (rates ? "  (value, per second)" : ""));
        for (ObjectName on : names) {
            out.println(on.getCanonicalName());
            javax.management.AttributeList values;
            try {
                MBeanAttributeInfo[] attrs = mbs.getMBeanInfo(on).getAttributes();
                String[] wanted = new String[attrs.length];
                for (int i = 0; i < attrs.length; i++) {
                    wanted[i] = attrs[i].getName();
                }
                values = mbs.getAttributes(on, wanted); // one snapshot per MBean
            } catch (javax.management.InstanceNotFoundException gone) {
                continue;
            }
            for (javax.management.Attribute a : values.asList()) {
                long value = ((Number) a.getValue()).longValue();
                String key = on.getCanonicalName() + "|" + a.getName();
                Long before = previous.put(key, value);
                if (value == 0 && !all) {
                    continue;
                }
                boolean rated = rates && before != null && !a.getName().startsWith("tcp.") && !a.getName().endsWith("HighWater");
                out.printf(rated ? "  %-36s %,18d %,14.0f/s%n" : "  %-36s %,18d%n", a.getName(), value,
                        rated ? (value - before) / (double) interval : 0.0);
            }
        }
        return true;
    }
}
