package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The NVM command set on an I/O queue (NVMe NVM command set / base 1.4 section 6): Read (RDMA
 * WRITE of the data into the host's keyed block), Write (in-capsule data, or an RDMA READ of the
 * host's keyed block) and Flush.
 */
final class IoCommands {
    private static final int NSID_ALL = 0xFFFFFFFF;

    private IoCommands() {
    }

    static void handle(CapsuleSlots q, Controller c, int i, Sqe sqe, int inCapsule) {
        Namespace ns = c.target().namespace();
        switch (sqe.opcode()) {
            case Opcodes.IO_READ, Opcodes.IO_WRITE -> {
                if (sqe.nsid() != 1) {
                    q.respond(i, sqe, Status.INVALID_NAMESPACE | Status.DNR, 0);
                    return;
                }
                long slba = sqe.qword10();
                int nlb = (sqe.cdw(12) & 0xFFFF) + 1;
                if (slba < 0 || slba > ns.blocks() - nlb) {
                    q.respond(i, sqe, Status.LBA_OUT_OF_RANGE | Status.DNR, 0);
                    return;
                }
                long length = (long) nlb * ns.blockSize();
                if (length > q.maxTransfer()) {
                    q.respond(i, sqe, Status.INVALID_FIELD | Status.DNR, 0); // above MDTS
                    return;
                }
                if (sqe.opcode() == Opcodes.IO_READ) {
                    read(q, c, i, sqe, ns, slba, nlb, (int) length);
                } else {
                    q.fromHost(i, sqe, inCapsule, (int) length, d -> write(q, c, i, sqe, ns, slba, nlb, d));
                }
            }
            case Opcodes.IO_FLUSH -> {
                if (sqe.nsid() != 1 && sqe.nsid() != NSID_ALL) {
                    q.respond(i, sqe, Status.INVALID_NAMESPACE | Status.DNR, 0);
                    return;
                }
                try {
                    ns.flush();
                    q.respond(i, sqe, Status.SUCCESS, 0);
                } catch (IOException e) {
                    q.respond(i, sqe, Status.WRITE_FAULT, 0);
                }
            }
            default -> q.respond(i, sqe, Status.INVALID_OPCODE | Status.DNR, 0);
        }
    }

    private static void read(CapsuleSlots q, Controller c, int i, Sqe sqe, Namespace ns, long slba, int nlb, int length) {
        if (!sqe.sgl().isKeyed()) { // checked before touching the namespace; toHostFromSlot checks again
            q.toHostFromSlot(i, sqe, length, 0);
            return;
        }
        try {
            ns.read(slba, q.data(i, length));
        } catch (IOException e) {
            q.respond(i, sqe, Status.UNRECOVERED_READ_ERROR, 0);
            return;
        }
        c.read(nlb);
        q.toHostFromSlot(i, sqe, length, 0);
    }

    private static void write(CapsuleSlots q, Controller c, int i, Sqe sqe, Namespace ns, long slba, int nlb,
            ByteBuffer d) {
        try {
            ns.write(slba, d);
        } catch (IOException e) {
            q.respond(i, sqe, Status.WRITE_FAULT, 0);
            return;
        }
        c.wrote(nlb);
        q.respond(i, sqe, Status.SUCCESS, 0);
    }
}
