package io.jrnic.verbs.observe;

import io.jrnic.verbs.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;

/**
 * A read-only MBean over a {@link Stats} supplier: one numeric attribute per counter (so any JMX
 * exporter sees plain longs), {@code tcp.*} attributes for the connection's TCP figures, and the
 * Terminate and set-up failure tables as {@code terminatesSent.<triple>} etc. Each getAttribute takes
 * a fresh snapshot, getAttributes one snapshot for all the names asked; the attribute list is the
 * one of the latest snapshot.
 */
final class StatsMBean implements DynamicMBean {
    private final Supplier<Stats> stats;
    private final String description;

    StatsMBean(Supplier<Stats> stats, String description) {
        this.stats = stats;
        this.description = description;
    }

    /** Flattens a snapshot to attribute name to value, in a stable order. */
    static Map<String, Long> flatten(Stats s) {
        Map<String, Long> m = new java.util.LinkedHashMap<>(s.counters());
        s.tcp().forEach((k, v) -> m.put("tcp." + k, v));
        s.terminatesSent().forEach((k, v) -> m.put("terminatesSent." + k, v));
        s.terminatesReceived().forEach((k, v) -> m.put("terminatesReceived." + k, v));
        s.setupFailures().forEach((k, v) -> m.put("setupFailures." + k, v));
        return m;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Long v = flatten(stats.get()).get(attribute);
        if (v == null) {
            throw new AttributeNotFoundException(attribute);
        }
        return v;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("jrnic counters are read-only");
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        Map<String, Long> m = flatten(stats.get());
        AttributeList l = new AttributeList();
        for (String a : attributes) {
            Long v = m.get(a);
            if (v != null) {
                l.add(new Attribute(a, v));
            }
        }
        return l;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException(actionName);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> attrs = new ArrayList<>();
        for (String name : flatten(stats.get()).keySet()) {
            attrs.add(new MBeanAttributeInfo(name, "long", name, true, false, false));
        }
        return new MBeanInfo(StatsMBean.class.getName(), description, attrs.toArray(new MBeanAttributeInfo[0]),
                null, new MBeanOperationInfo[0], null);
    }
}
