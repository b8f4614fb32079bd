package io.jrnic.verbs;

import io.jrnic.verbs.InvalidWorkRequestException.Reason;

/**
 * The rules a posted work request must follow before the provider sees it (the input checks of the
 * RDMAC verbs' Post SQ and Post RQ): opcode against the device's capabilities, SGE count and bounds, local
 * write rights, the remote buffer, atomics' size and alignment, inline size, fast registration and window
 * binding. Each broken rule is an {@link InvalidWorkRequestException} with its {@link Reason}.
 *
 * <p>A QP's validator is built by {@link #forQp}, which first checks the limits those rules use (the
 * {@link QpInit} of Create QP) against the device's attributes.
 */
final class WorkRequestValidator {
    private final ProtectionDomain pd;
    private final QpInit init;

    private WorkRequestValidator(ProtectionDomain pd, QpInit init) {
        this.pd = pd;
        this.init = init;
    }

    /**
     * The validator of a QP to be created in {@code pd} with {@code init}: its queue, SGE and inline
     * limits within the device's, its CQs open and of the same device, its SRQ (if any) open and of
     * {@code pd}. @throws IllegalArgumentException otherwise (ResourceClosedException for a closed CQ or SRQ)
     */
    static WorkRequestValidator forQp(ProtectionDomain pd, QpInit init) {
        RdmaDevice dev = pd.device();
        DeviceAttributes a = dev.attributes();
        checkRange("maxSendWr", init.maxSendWr, 1, a.maxQpWr());
        checkRange("maxRecvWr", init.maxRecvWr, init.srq == null ? 1 : 0, init.srq == null ? a.maxQpWr() : 0);
        checkRange("maxSendSge", init.maxSendSge, 1, a.maxSge());
        checkRange("maxRecvSge", init.maxRecvSge, 1, a.maxSge());
        checkRange("maxInline", init.maxInline, 0, a.maxInline());
        for (CompletionQueue cq : new CompletionQueue[] {init.sendCq, init.recvCq}) {
            cq.checkOpen();
            if (cq.device() != dev) {
                throw new IllegalArgumentException("CQ belongs to another device");
            }
        }
        if (init.srq != null) {
            init.srq.checkOpen();
            if (init.srq.pd() != pd) {
                throw new IllegalArgumentException("SRQ belongs to another protection domain");
            }
        }
        return new WorkRequestValidator(pd, init);
    }

    private static void checkRange(String what, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " " + v + " outside " + min + ".." + max);
        }
    }

    void validateSend(SendWr wr, int i, boolean type1Bind) {
        if (wr.isInFlight()) {
            throw new WorkRequestInFlightException(wr);
        }
        DeviceAttributes a = pd.device().attributes();
        WrOpcode op = wr.opcode();
        DeviceCapability cap = switch (op) {
            case ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> DeviceCapability.ATOMICS;
            case IMMEDIATE_DATA, RDMA_WRITE_WITH_IMMEDIATE -> DeviceCapability.IMMEDIATE_DATA;
            case REG_MR -> DeviceCapability.FAST_REGISTRATION;
            case BIND_MW -> type1Bind ? DeviceCapability.MEMORY_WINDOW_TYPE_1 : DeviceCapability.MEMORY_WINDOW_TYPE_2;
            default -> null;
        };
        if (cap != null && !a.has(cap)) {
            throw new InvalidWorkRequestException(i, Reason.UNSUPPORTED_OPCODE, op + " needs " + cap);
        }
        int sges = wr.sgeCount();
        switch (op) {
            case IMMEDIATE_DATA, REG_MR, LOCAL_INVALIDATE -> {
                if (sges != 0) {
                    throw new InvalidWorkRequestException(i, Reason.UNEXPECTED_SGES, op + " takes no SGEs");
                }
            }
            case BIND_MW -> {
                if (sges != 1) {
                    throw new InvalidWorkRequestException(i, Reason.UNEXPECTED_SGES, "BIND_MW takes exactly one SGE");
                }
            }
            case ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> {
                if (sges != 1 || wr.sgeLength(0) != 8) {
                    throw new InvalidWorkRequestException(i, Reason.BAD_ATOMIC, "atomics take one 8-byte SGE");
                }
            }
            case RDMA_READ -> {
                int max = Math.min(init.maxSendSge, a.maxReadSge());
                if (sges > max) {
                    throw new InvalidWorkRequestException(i, Reason.TOO_MANY_SGES, sges + " > " + max);
                }
            }
            default -> {
                if (sges > init.maxSendSge) {
                    throw new InvalidWorkRequestException(i, Reason.TOO_MANY_SGES, sges + " > " + init.maxSendSge);
                }
            }
        }
        boolean bind = op == WrOpcode.BIND_MW;
        for (int k = 0; k < sges; k++) {
            checkSge(i, wr, k, op.writesLocalMemory(), bind);
        }
        if (op.needsRemote() && !wr.hasRemote()) {
            throw new InvalidWorkRequestException(i, Reason.MISSING_REMOTE, op + " needs remote(stag, to)");
        }
        if (op.isAtomic() && (wr.remoteTo() & 7) != 0) {
            throw new InvalidWorkRequestException(i, Reason.BAD_ATOMIC, "remote TO not 8-byte aligned");
        }
        if (op.invalidates() && !wr.hasInvalidateStag()) {
            throw new InvalidWorkRequestException(i, Reason.MISSING_INVALIDATE_STAG, op + " needs invalidate(stag)");
        }
        long total = wr.totalLength();
        if (wr.isInline() && (!op.allowsInline() || total > init.maxInline)) {
            throw new InvalidWorkRequestException(i, Reason.INLINE_TOO_LARGE,
                    op.allowsInline() ? total + " > maxInline " + init.maxInline : op + " cannot be inline");
        }
        if (total > a.maxMessageSize()) {
            throw new InvalidWorkRequestException(i, Reason.MESSAGE_TOO_LARGE, total + " > " + a.maxMessageSize());
        }
        if (op == WrOpcode.REG_MR) {
            validateFastReg(wr, i);
        }
        if (bind) {
            validateBind(wr, i, type1Bind);
        }
    }

    private void checkSge(int i, WorkRequest wr, int k, boolean localWrite, boolean bind) {
        checkSge(pd, i, wr, k, !bind && localWrite);
    }

    /** SGE {@code k} of WR {@code i}: an open, valid region of {@code pd}, in bounds, LOCAL_WRITE when written. */
    private static void checkSge(ProtectionDomain pd, int i, WorkRequest wr, int k, boolean needsLocalWrite) {
        MemoryRegion mr = wr.sgeRegion(k);
        if (mr.isClosed() || !mr.isValid()) {
            throw new InvalidWorkRequestException(i, Reason.REGION_INVALID, "SGE " + k + ": region closed or invalid");
        }
        if (mr.pd() != pd) {
            throw new InvalidWorkRequestException(i, Reason.PD_MISMATCH, "SGE " + k + ": region of another PD");
        }
        if ((long) wr.sgeOffset(k) + wr.sgeLength(k) > mr.length()) {
            throw new InvalidWorkRequestException(i, Reason.SGE_OUT_OF_BOUNDS, "SGE " + k + " beyond " + mr.length());
        }
        if (needsLocalWrite && !Access.LOCAL_WRITE.in(mr.accessMask())) {
            throw new InvalidWorkRequestException(i, Reason.MISSING_LOCAL_WRITE, "SGE " + k + ": region lacks LOCAL_WRITE");
        }
    }

    private void validateFastReg(SendWr wr, int i) {
        MemoryRegion mr = wr.fastRegRegion();
        Memory m = wr.fastRegMemory();
        if (mr == null || m == null || !mr.isFastReg() || mr.isClosed()) {
            throw new InvalidWorkRequestException(i, Reason.BAD_FAST_REG, "target must be an open fast-reg region");
        }
        if (mr.pd() != pd) {
            throw new InvalidWorkRequestException(i, Reason.PD_MISMATCH, "fast-reg region of another PD");
        }
        if (m.length() > mr.maxFastRegLength()) {
            throw new InvalidWorkRequestException(i, Reason.BAD_FAST_REG, m.length() + " > maxLength " + mr.maxFastRegLength());
        }
        int a = wr.fastRegAccess();
        if (!m.isWritable() && (a & (Access.LOCAL_WRITE.bit() | Access.REMOTE_WRITE.bit() | Access.REMOTE_ATOMIC.bit())) != 0) {
            throw new InvalidWorkRequestException(i, Reason.BAD_FAST_REG, "read-only memory with write access");
        }
    }

    private void validateBind(SendWr wr, int i, boolean type1Bind) {
        MemoryWindow mw = wr.bindWindow();
        if (mw == null || mw.isClosed()) {
            throw new InvalidWorkRequestException(i, Reason.BAD_BIND, "window missing or closed");
        }
        if (mw.pd() != pd) {
            throw new InvalidWorkRequestException(i, Reason.PD_MISMATCH, "window of another PD");
        }
        if ((mw.type() == MemoryWindow.Type.TYPE_1) != type1Bind) {
            throw new InvalidWorkRequestException(i, Reason.BAD_BIND,
                    "type 1 windows bind with MemoryWindow.bind, type 2 with a BIND_MW work request");
        }
        int regionAccess = wr.sgeRegion(0).accessMask();
        if (!Access.MW_BIND.in(regionAccess)) {
            throw new InvalidWorkRequestException(i, Reason.BAD_BIND, "region lacks MW_BIND");
        }
        int wa = wr.bindAccess();
        if ((Access.REMOTE_WRITE.in(wa) || Access.REMOTE_ATOMIC.in(wa)) && !Access.LOCAL_WRITE.in(regionAccess)) {
            throw new InvalidWorkRequestException(i, Reason.BAD_BIND, "remote write rights need a LOCAL_WRITE region");
        }
    }

    /** Receive {@code i} posted to the QP's own receive queue (none when it uses an SRQ). */
    void validateRecv(RecvWr wr, int i) {
        if (wr.isInFlight()) {
            throw new WorkRequestInFlightException(wr);
        }
        if (init.srq != null) {
            throw new InvalidWorkRequestException(i, Reason.QP_USES_SRQ, "post receives to the SRQ");
        }
        validateRecv(pd, init.maxRecvSge, wr, i);
    }

    static void validateRecv(ProtectionDomain pd, int maxSge, RecvWr wr, int i) {
        if (wr.sgeCount() > maxSge) {
            throw new InvalidWorkRequestException(i, Reason.TOO_MANY_SGES, wr.sgeCount() + " > " + maxSge);
        }
        for (int k = 0; k < wr.sgeCount(); k++) {
            checkSge(pd, i, wr, k, true);
        }
    }
}
