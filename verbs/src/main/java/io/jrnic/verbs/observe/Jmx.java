package io.jrnic.verbs.observe;

import io.jrnic.verbs.Stats;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers devices and queue pairs in the platform MBeanServer for their lifetime, as
 * {@code io.jrnic:type=Device,name=<device>} and {@code io.jrnic:type=QueuePair,name=<device>,qp=<n>}.
 * A second device of the same name in one JVM gets {@code name=<device>#2}. Disabled with
 * {@code -Djrnic.jmx=false}.
 */
public final class Jmx {
    /** The JMX domain of every jrnic MBean. */
    public static final String DOMAIN = "io.jrnic";
    private static final Logger LOG = LoggerFactory.getLogger(Jmx.class);
    private static final boolean ENABLED = !"false".equals(System.getProperty("jrnic.jmx"));

    private Jmx() {
    }

    /** Registers a device; returns its name (null when JMX is off or failed). */
    public static ObjectName registerDevice(String device, Supplier<Stats> stats) {
        for (int i = 1; ENABLED && i < 1000; i++) {
            String n = i == 1 ? device : device + "#" + i;
            ObjectName on = name("type=Device,name=" + ObjectName.quote(n));
            if (register(on, stats, "jrnic device " + n)) {
                return on;
            }
        }
        return null;
    }

    /** Registers a QP under its device's name (as returned by {@link #registerDevice}). */
    public static ObjectName registerQp(ObjectName device, int qp, Supplier<Stats> stats) {
        if (!ENABLED || device == null) {
            return null;
        }
        ObjectName on = name("type=QueuePair,name=" + device.getKeyProperty("name") + ",qp=" + qp);
        return register(on, stats, "jrnic queue pair " + qp) ? on : null;
    }

    public static void unregister(ObjectName on) {
        if (on == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(on);
        } catch (JMException e) {
            LOG.debug("JMX unregister {}: {}", on, e.toString());
        }
    }

    private static boolean register(ObjectName on, Supplier<Stats> stats, String description) {
        MBeanServer s = ManagementFactory.getPlatformMBeanServer();
        try {
            s.registerMBean(new StatsMBean(stats, description), on);
            return true;
        } catch (InstanceAlreadyExistsException e) {
            return false;
        } catch (JMException e) {
            LOG.warn("JMX registration of {} failed: {}", on, e.toString());
            return false;
        }
    }

    private static ObjectName name(String props) {
        try {
            return new ObjectName(DOMAIN + ":" + props);
        } catch (JMException e) {
            throw new IllegalArgumentException(props, e);
        }
    }
}
