package io.jrnic.verbs;

import java.util.Objects;

/**
 * A reusable, mutable send-queue work request (verbs "Post SQ"). Build once, post many times:
 * <pre>{@code
 * SendWr write = SendWr.rdmaWrite().id(42).local(mr.sge(0, 65536)).remote(peer, 0).signaled();
 * qp.postSend(write);   // later, after its completion: write.id(43); qp.postSend(write);
 * }</pre>
 *
 * <p>Fields each opcode reads (everything else is ignored):
 * <table>
 * <caption>SendWr fields per opcode</caption>
 * <tr><th>opcode</th><th>SGEs</th><th>other fields</th></tr>
 * <tr><td>SEND, SEND_WITH_SE</td><td>0..maxSge, gather</td><td>inline, solicited</td></tr>
 * <tr><td>SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE</td><td>0..maxSge, gather</td><td>invalidateStag (required), inline</td></tr>
 * <tr><td>RDMA_WRITE</td><td>0..maxSge, gather</td><td>remote (required), inline</td></tr>
 * <tr><td>RDMA_WRITE_WITH_IMMEDIATE</td><td>0..maxSge, gather</td><td>remote (required), immediateData, solicited, inline</td></tr>
 * <tr><td>RDMA_READ</td><td>1..maxReadSge, scatter, regions need LOCAL_WRITE</td><td>remote (required); read size = total SGE length</td></tr>
 * <tr><td>ATOMIC_FETCH_ADD</td><td>exactly one of 8 bytes, LOCAL_WRITE</td><td>remote (required, TO 8-byte aligned), compareAdd = addend</td></tr>
 * <tr><td>ATOMIC_COMPARE_SWAP</td><td>exactly one of 8 bytes, LOCAL_WRITE</td><td>remote (required, TO 8-byte aligned), compareAdd = compare, swap</td></tr>
 * <tr><td>IMMEDIATE_DATA</td><td>none</td><td>immediateData, solicited</td></tr>
 * <tr><td>REG_MR</td><td>none</td><td>fastReg* fields</td></tr>
 * <tr><td>LOCAL_INVALIDATE</td><td>none</td><td>invalidateStag (required)</td></tr>
 * <tr><td>BIND_MW</td><td>exactly one: the bound range</td><td>bindWindow, bindAccess, bindKey</td></tr>
 * </table>
 * Flags valid for all: id, signaled, fence (wait for all earlier RDMA Reads/atomics on this QP to
 * complete before starting, RDMAC verbs "read fence").
 */
public final class SendWr extends WorkRequest {
    private WrOpcode opcode;
    private boolean inline;
    private boolean signaled;
    private boolean fence;
    private boolean solicited;
    private boolean hasRemote;
    private int remoteStag;
    private long remoteTo;
    private boolean hasInvalidate;
    private int invalidateStag;
    private long compareAdd;
    private long swap;
    private long immediateData;
    private MemoryRegion fastRegRegion;
    private Memory fastRegMemory;
    private int fastRegAccess;
    private int fastRegKey;
    private boolean fastRegZeroBased = true;
    private long fastRegBase;
    private MemoryWindow bindWindow;
    private int bindAccess;
    private int bindKey;

    /** A work request with the given opcode and nothing else set. */
    public SendWr(WrOpcode opcode) {
        this.opcode = Objects.requireNonNull(opcode);
    }

    public static SendWr send() {
        return new SendWr(WrOpcode.SEND);
    }

    public static SendWr sendWithInvalidate(int stag) {
        return new SendWr(WrOpcode.SEND_WITH_INVALIDATE).invalidate(stag);
    }

    public static SendWr rdmaWrite() {
        return new SendWr(WrOpcode.RDMA_WRITE);
    }

    public static SendWr rdmaWriteWithImmediate(long immediate) {
        return new SendWr(WrOpcode.RDMA_WRITE_WITH_IMMEDIATE).immediate(immediate);
    }

    public static SendWr rdmaRead() {
        return new SendWr(WrOpcode.RDMA_READ);
    }

    public static SendWr fetchAdd(long addend) {
        return new SendWr(WrOpcode.ATOMIC_FETCH_ADD).compareAdd(addend);
    }

    public static SendWr compareSwap(long compare, long swap) {
        return new SendWr(WrOpcode.ATOMIC_COMPARE_SWAP).compareAdd(compare).swap(swap);
    }

    public static SendWr immediateData(long data) {
        return new SendWr(WrOpcode.IMMEDIATE_DATA).immediate(data);
    }

    /** Fast registration of {@code memory} into {@code region} (from {@link ProtectionDomain#allocateFastRegMr}). */
    public static SendWr fastRegister(MemoryRegion region, Memory memory, int key, Access... access) {
        return new SendWr(WrOpcode.REG_MR).fastReg(region, memory, key, Access.mask(access));
    }

    public static SendWr localInvalidate(int stag) {
        return new SendWr(WrOpcode.LOCAL_INVALIDATE).invalidate(stag);
    }

    /** Type 2 window bind over {@code range} with the new key and remote rights. */
    public static SendWr bindWindow(MemoryWindow window, Sge range, int key, Access... access) {
        return new SendWr(WrOpcode.BIND_MW).bind(window, key, Access.mask(access)).local(range);
    }

    // ---- mutators (all throw WorkRequestInFlightException while posted) ----

    public SendWr opcode(WrOpcode op) {
        checkMutable();
        this.opcode = Objects.requireNonNull(op);
        return this;
    }

    public SendWr id(long id) {
        doId(id);
        return this;
    }

    /** Replaces the SGE list. */
    public SendWr local(Sge... sges) {
        doClearSges();
        for (Sge s : sges) {
            doAddSge(s.region(), s.offset(), s.length());
        }
        return this;
    }

    /** Replaces the SGE list with one element, without allocating. */
    public SendWr local(MemoryRegion mr, int offset, int length) {
        doClearSges();
        doAddSge(mr, offset, length);
        return this;
    }

    public SendWr addSge(Sge s) {
        doAddSge(s.region(), s.offset(), s.length());
        return this;
    }

    public SendWr addSge(MemoryRegion mr, int offset, int length) {
        doAddSge(mr, offset, length);
        return this;
    }

    public SendWr clearSges() {
        doClearSges();
        return this;
    }

    /** Remote STag and TO. */
    public SendWr remote(int stag, long to) {
        checkMutable();
        this.hasRemote = true;
        this.remoteStag = stag;
        this.remoteTo = to;
        return this;
    }

    /** Remote byte {@code offset} of an advertised buffer. */
    public SendWr remote(RemoteBuffer rb, long offset) {
        return remote(rb.stag(), rb.to(offset));
    }

    public SendWr inline(boolean on) {
        checkMutable();
        this.inline = on;
        return this;
    }

    /** Copy the payload at post time (the SGE memory may be reused as soon as postSend returns). */
    public SendWr inline() {
        return inline(true);
    }

    public SendWr signaled(boolean on) {
        checkMutable();
        this.signaled = on;
        return this;
    }

    /** Produce a completion on success (errors always produce one). */
    public SendWr signaled() {
        return signaled(true);
    }

    public SendWr fence(boolean on) {
        checkMutable();
        this.fence = on;
        return this;
    }

    public SendWr fence() {
        return fence(true);
    }

    public SendWr solicited(boolean on) {
        checkMutable();
        this.solicited = on;
        return this;
    }

    /** Ask the peer for a solicited event (Send with SE / Immediate Data with SE). */
    public SendWr solicited() {
        return solicited(true);
    }

    public SendWr invalidate(int stag) {
        checkMutable();
        this.hasInvalidate = true;
        this.invalidateStag = stag;
        return this;
    }

    public SendWr compareAdd(long v) {
        checkMutable();
        this.compareAdd = v;
        return this;
    }

    public SendWr swap(long v) {
        checkMutable();
        this.swap = v;
        return this;
    }

    public SendWr immediate(long v) {
        checkMutable();
        this.immediateData = v;
        return this;
    }

    public SendWr fastReg(MemoryRegion region, Memory memory, int key, int accessMask) {
        checkMutable();
        if (key < 0 || key > 0xFF) {
            throw new IllegalArgumentException("STag key is 8 bits: " + key);
        }
        this.fastRegRegion = Objects.requireNonNull(region);
        this.fastRegMemory = Objects.requireNonNull(memory);
        this.fastRegKey = key;
        this.fastRegAccess = Access.validateRegion(accessMask);
        return this;
    }

    /** Tagged offsets of the fast-registered region start at 0 (default). */
    public SendWr fastRegZeroBased() {
        checkMutable();
        this.fastRegZeroBased = true;
        this.fastRegBase = 0;
        return this;
    }

    /** Tagged offsets of the fast-registered region start at {@code base}. */
    public SendWr fastRegBase(long base) {
        checkMutable();
        this.fastRegZeroBased = false;
        this.fastRegBase = base;
        return this;
    }

    public SendWr bind(MemoryWindow window, int key, int accessMask) {
        checkMutable();
        if (key < 0 || key > 0xFF) {
            throw new IllegalArgumentException("STag key is 8 bits: " + key);
        }
        this.bindWindow = Objects.requireNonNull(window);
        this.bindKey = key;
        this.bindAccess = Access.validateWindow(accessMask);
        return this;
    }

    // ---- accessors (what providers read) ----

    public WrOpcode opcode() {
        return opcode;
    }

    public boolean isInline() {
        return inline;
    }

    public boolean isSignaled() {
        return signaled;
    }

    public boolean isFenced() {
        return fence;
    }

    /** Effective solicited-event bit: the flag, or an SE opcode. Selects RDMAP 0x5/0x6 for Sends and 0x9 for Immediate Data. */
    public boolean isSolicited() {
        return solicited || opcode == WrOpcode.SEND_WITH_SE || opcode == WrOpcode.SEND_WITH_SE_AND_INVALIDATE;
    }

    public boolean hasRemote() {
        return hasRemote;
    }

    public int remoteStag() {
        return remoteStag;
    }

    public long remoteTo() {
        return remoteTo;
    }

    public boolean hasInvalidateStag() {
        return hasInvalidate;
    }

    public int invalidateStag() {
        return invalidateStag;
    }

    /** Addend (fetch-add) or compare value (compare-swap). */
    public long compareAdd() {
        return compareAdd;
    }

    public long swap() {
        return swap;
    }

    public long immediateData() {
        return immediateData;
    }

    public MemoryRegion fastRegRegion() {
        return fastRegRegion;
    }

    public Memory fastRegMemory() {
        return fastRegMemory;
    }

    public int fastRegAccess() {
        return fastRegAccess;
    }

    public int fastRegKey() {
        return fastRegKey;
    }

    public boolean isFastRegZeroBased() {
        return fastRegZeroBased;
    }

    public long fastRegBase() {
        return fastRegBase;
    }

    public MemoryWindow bindWindow() {
        return bindWindow;
    }

    public int bindAccess() {
        return bindAccess;
    }

    public int bindKey() {
        return bindKey;
    }

    @Override
    public String toString() {
        return "SendWr[" + opcode + " id=" + id + " sges=" + sgeCount() + (signaled ? " signaled" : "")
                + (hasRemote ? String.format(" remote=0x%08x/0x%x", remoteStag, remoteTo) : "") + "]";
    }
}
