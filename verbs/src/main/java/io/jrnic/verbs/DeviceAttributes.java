package io.jrnic.verbs;

import java.util.EnumSet;
import java.util.Set;

/**
 * Immutable device limits (verbs "Query RNIC"). The API enforces them before calling the provider.
 *
 * @param vendor        free text
 * @param maxQp         QPs per device
 * @param maxQpWr       WRs per send or receive queue
 * @param maxSge        SGEs per send/receive WR
 * @param maxReadSge    SGEs per RDMA Read WR (siw: 1)
 * @param maxInline     inline payload bytes (siw: 80)
 * @param maxCq         CQs per device
 * @param maxCqe        entries per CQ
 * @param maxPd         PDs per device
 * @param maxMr         regions per device
 * @param maxMw         windows per device
 * @param maxSrq        SRQs per device
 * @param maxSrqWr      WRs per SRQ
 * @param maxIrd        inbound RDMA Read/atomic queue depth (siw: 128)
 * @param maxOrd        outbound RDMA Reads/atomics in flight (siw: 128)
 * @param maxMessageSize largest message (siw: 2^31)
 * @param capabilities  optional features
 */
public record DeviceAttributes(String vendor, int maxQp, int maxQpWr, int maxSge, int maxReadSge, int maxInline,
                               int maxCq, int maxCqe, int maxPd, int maxMr, int maxMw, int maxSrq, int maxSrqWr,
                               int maxIrd, int maxOrd, long maxMessageSize, Set<DeviceCapability> capabilities) {

    public DeviceAttributes {
        capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
        for (long v : new long[] {maxQp, maxQpWr, maxSge, maxReadSge, maxCq, maxCqe, maxPd, maxMr, maxMessageSize}) {
            if (v < 1) {
                throw new IllegalArgumentException("device limits must be positive");
            }
        }
        if (maxInline < 0 || maxMw < 0 || maxSrq < 0 || maxSrqWr < 0 || maxIrd < 0 || maxOrd < 0) {
            throw new IllegalArgumentException("device limits must not be negative");
        }
    }

    public boolean has(DeviceCapability c) {
        return capabilities.contains(c);
    }

    /** A builder preset to Linux siw's limits (siw_verbs / siw.h). */
    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private String vendor = "jrnic";
        private int maxQp = 1024;
        private int maxQpWr = 1024;
        private int maxSge = 6;
        private int maxReadSge = 1;
        private int maxInline = 80;
        private int maxCq = 1024;
        private int maxCqe = 65536;
        private int maxPd = 1024;
        private int maxMr = 4096;
        private int maxMw = 0;
        private int maxSrq = 1024;
        private int maxSrqWr = 4096;
        private int maxIrd = 128;
        private int maxOrd = 128;
        private long maxMessageSize = 1L << 31;
        private final EnumSet<DeviceCapability> caps = EnumSet.of(DeviceCapability.FAST_REGISTRATION,
                DeviceCapability.SHARED_RECEIVE_QUEUE);

        public Builder vendor(String v) { vendor = v; return this; }
        public Builder maxQp(int v) { maxQp = v; return this; }
        public Builder maxQpWr(int v) { maxQpWr = v; return this; }
        public Builder maxSge(int v) { maxSge = v; return this; }
        public Builder maxReadSge(int v) { maxReadSge = v; return this; }
        public Builder maxInline(int v) { maxInline = v; return this; }
        public Builder maxCq(int v) { maxCq = v; return this; }
        public Builder maxCqe(int v) { maxCqe = v; return this; }
        public Builder maxPd(int v) { maxPd = v; return this; }
        public Builder maxMr(int v) { maxMr = v; return this; }
        public Builder maxMw(int v) { maxMw = v; return this; }
        public Builder maxSrq(int v) { maxSrq = v; return this; }
        public Builder maxSrqWr(int v) { maxSrqWr = v; return this; }
        public Builder maxIrd(int v) { maxIrd = v; return this; }
        public Builder maxOrd(int v) { maxOrd = v; return this; }
        public Builder maxMessageSize(long v) { maxMessageSize = v; return this; }
        public Builder capability(DeviceCapability c, boolean on) {
            if (on) {
                caps.add(c);
            } else {
                caps.remove(c);
            }
            return this;
        }

        public DeviceAttributes build() {
            return new DeviceAttributes(vendor, maxQp, maxQpWr, maxSge, maxReadSge, maxInline, maxCq, maxCqe, maxPd,
                    maxMr, maxMw, maxSrq, maxSrqWr, maxIrd, maxOrd, maxMessageSize, caps);
        }
    }
}
