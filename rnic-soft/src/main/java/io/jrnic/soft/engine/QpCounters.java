package io.jrnic.soft.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One QP's counters. The data-path counters have a single writer, the event loop the QP's stream
 * is bound to, so they are plain {@code long} slots written with an opaque store (no lock, no CAS,
 * no allocation) and read from any thread with an opaque load: a reader sees each counter's value
 * as of some recent moment, never a torn one. (A QP never bound to a stream retires its flushed
 * WRs on the consumer's thread; no event loop writes then, so there is still one writer.)
 * Terminates are rare and keyed by their triple: a concurrent map (new keys are published safely
 * to readers) of {@link LongAdder}s, allocated once per distinct triple, never per FPDU.
 */
public final class QpCounters {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final Counter[] ALL = Counter.values();

    private final long[] slots = new long[ALL.length];
    private final Map<String, LongAdder> terminatesSent = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> terminatesReceived = new ConcurrentHashMap<>();

    /** Adds {@code n} (single writer: the QP's event loop). */
    public void add(Counter c, long n) {
        int i = c.ordinal();
        SLOT.setOpaque(slots, i, (long) SLOT.getOpaque(slots, i) + n);
    }

    public void inc(Counter c) {
        add(c, 1);
    }

    /** Raises a high-water mark to {@code v} when above it. */
    public void max(Counter c, long v) {
        int i = c.ordinal();
        if (v > (long) SLOT.getOpaque(slots, i)) {
            SLOT.setOpaque(slots, i, v);
        }
    }

    /**
     * Counts an accepted FPDU of {@code op}, and a message when its DDP control byte has the Last flag
     * (RFC 5041 section 4.1: L is bit 1 of the first octet).
     */
    void received(io.jrnic.rdmap.RdmapOpcode op, byte ddpControl) {
        inc(Counter.RX_FPDUS);
        if ((ddpControl & 0x40) != 0) {
            Counter c = switch (op) {
                case RDMA_WRITE -> Counter.RX_WRITE;
                case RDMA_READ_REQUEST -> Counter.RX_READ_REQUEST;
                case RDMA_READ_RESPONSE -> Counter.RX_READ_RESPONSE;
                case ATOMIC_REQUEST, ATOMIC_RESPONSE -> Counter.RX_ATOMIC;
                case TERMINATE -> Counter.RX_TERMINATE;
                default -> Counter.RX_SEND;
            };
            inc(c);
        }
    }

    public long get(Counter c) {
        return (long) SLOT.getOpaque(slots, c.ordinal());
    }

    /**
     * Counts a Terminate by its triple (rare: a map entry per distinct triple); a DDP untagged "no
     * buffer available" (RFC 5041 section 7.2: layer 1, type 2, code 0x02) sent is a receive-queue-empty event.
     */
    public void terminate(int layer, int type, int code, boolean received) {
        String key = io.jrnic.verbs.Stats.triple(layer, type, code);
        (received ? terminatesReceived : terminatesSent).computeIfAbsent(key, k -> new LongAdder()).increment();
        inc(received ? Counter.TERMINATES_RECEIVED : Counter.TERMINATES_SENT);
        if (!received && layer == 1 && type == 2 && code == 2) {
            inc(Counter.RQ_EMPTY);
        }
    }

    /** Adds this QP's counters into {@code into} (high-water marks as maxima). */
    public void addTo(long[] into) {
        for (Counter c : ALL) {
            long v = get(c);
            into[c.ordinal()] = isHighWater(c) ? Math.max(into[c.ordinal()], v) : into[c.ordinal()] + v;
        }
    }

    public void terminatesTo(Map<String, Long> sent, Map<String, Long> received) {
        terminatesSent.forEach((k, v) -> sent.merge(k, v.sum(), Long::sum));
        terminatesReceived.forEach((k, v) -> received.merge(k, v.sum(), Long::sum));
    }

    static boolean isHighWater(Counter c) {
        return c == Counter.IRD_HIGH_WATER || c == Counter.ORD_HIGH_WATER;
    }

    /** Counter values keyed by {@link Counter#key()}, in declaration order. */
    public static Map<String, Long> named(long[] values) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : ALL) {
            m.put(c.key(), values[c.ordinal()]);
        }
        return m;
    }

    public static int size() {
        return ALL.length;
    }
}
