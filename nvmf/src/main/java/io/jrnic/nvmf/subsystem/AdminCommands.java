package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import java.nio.ByteBuffer;

/**
 * The admin queue's commands (NVMe base 1.4 section 5; the Fabrics property commands of NVMe over
 * Fabrics 1.1 sections 3.4-3.5). Each answers through its queue's {@link CapsuleSlots}.
 */
final class AdminCommands {
    private AdminCommands() {
    }

    static void handle(CapsuleSlots q, Controller c, int i, Sqe sqe) {
        c.saw(name(sqe));
        switch (sqe.opcode()) {
            case Opcodes.ADMIN_IDENTIFY -> identify(q, c, i, sqe);
            case Opcodes.ADMIN_GET_LOG_PAGE -> getLogPage(q, c, i, sqe);
            case Opcodes.ADMIN_SET_FEATURES -> setFeatures(q, c, i, sqe);
            case Opcodes.ADMIN_GET_FEATURES -> getFeatures(q, c, i, sqe);
            case Opcodes.ADMIN_ASYNC_EVENT_REQUEST -> {
                if (c.holdAer(sqe.cid())) {
                    q.hold(i); // completes only when an event occurs: none is ever reported
                } else {
                    q.respond(i, sqe, Status.ASYNC_EVENT_LIMIT_EXCEEDED, 0);
                }
            }
            case Opcodes.ADMIN_KEEP_ALIVE -> {
                c.keepAlive();
                q.respond(i, sqe, Status.SUCCESS, 0);
            }
            case Opcodes.ADMIN_ABORT -> q.respond(i, sqe, Status.SUCCESS, 1); // DW0 bit 0: not aborted
            default -> q.respond(i, sqe, Status.INVALID_OPCODE | Status.DNR, 0);
        }
    }

    /** A short name of an admin command for the record of what a host asked for. */
    static String name(Sqe sqe) {
        int lo = sqe.cdw(10) & 0xFF;
        return switch (sqe.opcode()) {
            case Opcodes.ADMIN_IDENTIFY -> String.format("Identify CNS %02xh", lo);
            case Opcodes.ADMIN_GET_LOG_PAGE -> String.format("Get Log Page %02xh", lo);
            case Opcodes.ADMIN_SET_FEATURES -> String.format("Set Features %02xh", lo);
            case Opcodes.ADMIN_GET_FEATURES -> String.format("Get Features %02xh", lo);
            case Opcodes.ADMIN_ASYNC_EVENT_REQUEST -> "Asynchronous Event Request";
            case Opcodes.ADMIN_KEEP_ALIVE -> "Keep Alive";
            default -> String.format("opcode %02xh", sqe.opcode());
        };
    }

    /** Property Get / Set of CAP (8 octets), VS, CC and CSTS (4 octets); only CC is writable. */
    static void property(CapsuleSlots q, Controller c, int i, Sqe sqe) {
        c.saw(String.format("Property %s 0x%02x", sqe.fctype() == Opcodes.FCTYPE_PROPERTY_SET ? "Set" : "Get",
                Fabrics.propertyOffset(sqe)));
        int offset = Fabrics.propertyOffset(sqe);
        int size = Fabrics.propertySize(sqe);
        if (sqe.fctype() == Opcodes.FCTYPE_PROPERTY_SET) {
            if (offset != Fabrics.CC || size != Fabrics.SIZE_4) {
                q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
                return;
            }
            c.setCc((int) Fabrics.propertyValue(sqe));
            q.respond(i, sqe, Status.SUCCESS, 0);
            return;
        }
        long value;
        if (offset == Fabrics.CAP && size == Fabrics.SIZE_8) {
            value = Controller.cap(c.target().config().queueDepth());
        } else if (size != Fabrics.SIZE_4) {
            q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
            return;
        } else if (offset == Fabrics.VS) {
            value = IdentifyData.VERSION;
        } else if (offset == Fabrics.CC) {
            value = c.cc();
        } else if (offset == Fabrics.CSTS) {
            value = c.csts();
        } else {
            q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
            return;
        }
        q.respond(i, sqe, Status.SUCCESS, (int) value, (int) (value >>> 32));
    }

    /**
     * Identify (section 5.15): CNS 00h namespace, 01h controller, 02h active NSID list, 03h NS descriptors,
     * 06h I/O command set specific controller for CSI 0 (NVM; all limits 0; Linux 6.1 asks for it).
     */
    private static void identify(CapsuleSlots q, Controller c, int i, Sqe sqe) {
        NvmfTarget t = c.target();
        String nqn = t.config().subsystemNqn();
        ByteBuffer d;
        switch (sqe.cdw(10) & 0xFF) {
            case Opcodes.CNS_CONTROLLER -> d = IdentifyData.controller(t.config(), c.cntlid());
            case Opcodes.CNS_NAMESPACE -> d = sqe.nsid() == 1 ? IdentifyData.namespace(t.namespace(), nqn, 1) : null;
            case Opcodes.CNS_ACTIVE_NS_LIST -> {
                if (Integer.compareUnsigned(sqe.nsid(), 0xFFFFFFFE) >= 0) {
                    q.respond(i, sqe, Status.INVALID_NAMESPACE | Status.DNR, 0);
                    return;
                }
                d = IdentifyData.activeNamespaces(sqe.nsid());
            }
            case Opcodes.CNS_NS_DESCRIPTORS -> d = sqe.nsid() == 1 ? IdentifyData.namespaceDescriptors(nqn, 1) : null;
            case Opcodes.CNS_CS_CONTROLLER -> {
                if ((sqe.cdw(11) >>> 24) != 0) { // CSI: only the NVM command set
                    q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
                    return;
                }
                d = IdentifyData.le(IdentifyData.SIZE); // NVM limits (VSL, WZSL, DMRL...): 0, none reported
            }
            default -> {
                q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
                return;
            }
        }
        if (d == null) {
            q.respond(i, sqe, Status.INVALID_NAMESPACE | Status.DNR, 0);
        } else {
            q.toHost(i, sqe, d, 0);
        }
    }

    /**
     * Get Log Page (section 5.14): NUMD = NUMDU:NUMDL + 1 dwords from offset LPOU:LPOL of the error
     * information (01h), SMART / health (02h), firmware slot (03h) or changed namespace list (04h) page.
     */
    private static void getLogPage(CapsuleSlots q, Controller c, int i, Sqe sqe) {
        int lid = sqe.cdw(10) & 0xFF;
        long numd = ((long) (sqe.cdw(11) & 0xFFFF) << 16 | sqe.cdw(10) >>> 16) + 1;
        long offset = Integer.toUnsignedLong(sqe.cdw(12)) | (long) sqe.cdw(13) << 32;
        long length = numd * 4;
        ByteBuffer page = switch (lid) {
            case Opcodes.LOG_ERROR -> IdentifyData.le(64);
            case Opcodes.LOG_SMART -> c.smartLog();
            case Opcodes.LOG_FIRMWARE_SLOT -> IdentifyData.firmwareLog();
            case Opcodes.LOG_CHANGED_NS -> IdentifyData.le(4096);
            default -> null;
        };
        if (page == null) {
            q.respond(i, sqe, Status.INVALID_LOG_PAGE | Status.DNR, 0);
        } else if (length > q.maxTransfer() || offset % 4 != 0 || offset >= page.capacity()) {
            q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
        } else {
            ByteBuffer out = ByteBuffer.allocate((int) length); // beyond the page: zeros
            out.put(page.position((int) offset).limit((int) Math.min(page.capacity(), offset + length)));
            q.toHost(i, sqe, out.clear(), 0);
        }
    }

    /** Set Features (section 5.21): Number of Queues, Keep Alive Timer, Async Event Configuration, VWC. */
    private static void setFeatures(CapsuleSlots q, Controller c, int i, Sqe sqe) {
        int fid = sqe.cdw(10) & 0xFF;
        int v = sqe.cdw(11);
        if (sqe.cdw(10) < 0) { // SV: nothing is saveable
            q.respond(i, sqe, Status.FEATURE_NOT_SAVEABLE | Status.DNR, 0);
            return;
        }
        switch (fid) {
            case Opcodes.FEATURE_NUMBER_OF_QUEUES -> {
                int nsqr = v & 0xFFFF;
                int ncqr = v >>> 16;
                if (nsqr == 0xFFFF || ncqr == 0xFFFF) {
                    q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
                } else {
                    q.respond(i, sqe, Status.SUCCESS, c.allocateQueues(nsqr, ncqr));
                }
            }
            case Opcodes.FEATURE_KEEP_ALIVE_TIMER -> {
                c.katoMillis(Integer.toUnsignedLong(v));
                q.respond(i, sqe, Status.SUCCESS, 0);
            }
            case Opcodes.FEATURE_ASYNC_EVENT_CONFIG -> {
                c.asyncEventConfig(v);
                q.respond(i, sqe, Status.SUCCESS, 0);
            }
            case Opcodes.FEATURE_VOLATILE_WRITE_CACHE -> {
                c.volatileWriteCache(v);
                q.respond(i, sqe, Status.SUCCESS, 0);
            }
            default -> q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
        }
    }

    /** Get Features (section 5.9): the current values (SEL 11b: capabilities, nothing saveable or changeable). */
    private static void getFeatures(CapsuleSlots q, Controller c, int i, Sqe sqe) {
        int fid = sqe.cdw(10) & 0xFF;
        int sel = (sqe.cdw(10) >>> 8) & 7;
        int value;
        switch (fid) {
            case Opcodes.FEATURE_NUMBER_OF_QUEUES -> value = c.queuesAllocated() << 16 | c.queuesAllocated();
            case Opcodes.FEATURE_KEEP_ALIVE_TIMER -> value = (int) c.katoMillis();
            case Opcodes.FEATURE_ASYNC_EVENT_CONFIG -> value = c.asyncEventConfig();
            case Opcodes.FEATURE_VOLATILE_WRITE_CACHE -> value = c.volatileWriteCache();
            default -> {
                q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0);
                return;
            }
        }
        q.respond(i, sqe, Status.SUCCESS, sel == 3 ? 0 : value);
    }
}
