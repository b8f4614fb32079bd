package io.jrnic.examples.srp;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * SRP-style initiator over jrnic. Per command: fast-register the slot's buffer with a fresh key
 * (REMOTE_WRITE for a READ, REMOTE_READ for a WRITE), then Send the command carrying the
 * descriptor (STag, TaggedOffset 0, length). The target answers with a Send with Invalidate of that
 * STag, so the region is dead when the response arrives; the slot's next command registers again.
 */
public final class SrpInitiator extends InitiatorBase {
    private static final long WAIT_SECONDS = 10;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final Connection connection;
    private final MemoryRegion[] regions;
    private final int[] stags;
    private final ByteBuffer cmdBuf;
    private final MemoryRegion cmdMr;
    private final ByteBuffer rspBuf;
    private final MemoryRegion rspMr;
    private final CqPoller poller;

    private SrpInitiator(RdmaDevice dev, InetSocketAddress target, int slots, int maxTransfer) throws Exception {
        super(slots, maxTransfer);
        pd = dev.allocatePd();
        cq = dev.createCq(8 * slots + 16);
        qp = pd.createQp(QpInit.rc(cq).maxSendWr(2 * slots + 2).maxRecvWr(slots));
        regions = new MemoryRegion[slots];
        stags = new int[slots];
        for (int i = 0; i < slots; i++) {
            regions[i] = pd.allocateFastRegMr(maxTransfer);
        }
        cmdBuf = ByteBuffer.allocateDirect(slots * SrpWire.CMD);
        cmdMr = pd.register(cmdBuf, Access.LOCAL_WRITE);
        rspBuf = ByteBuffer.allocateDirect(slots * SrpWire.RSP);
        rspMr = pd.register(rspBuf, Access.LOCAL_WRITE);
        for (int i = 0; i < slots; i++) { // responses can arrive as soon as the first command is out
            qp.postRecv(RecvWr.of(i, rspMr.sge(i * SrpWire.RSP, SrpWire.RSP)));
        }
        try {
            connection = dev.connectionManager().connect(target, qp, ConnectOptions.defaults()
                    .privateData(new SrpWire.Login(slots, maxTransfer).encode())).get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("login failed: " + e.getCause(), e.getCause());
        }
        try {
            loggedIn(SrpWire.LoginAccept.decode(connection.peerPrivateData()), maxTransfer);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
        poller = new CqPoller("srp-initiator-cq", cq, this::complete);
    }

    /** Logs in to the target at {@code target} with {@code slots} command slots of {@code maxTransfer} bytes. */
    public static SrpInitiator connect(RdmaDevice dev, InetSocketAddress target, int slots, int maxTransfer)
            throws Exception {
        return new SrpInitiator(dev, target, slots, maxTransfer);
    }

    @Override
    public String name() {
        return "jrnic";
    }






    /** The initiator's queue pair. */
    public QueuePair queuePair() {
        return qp;
    }

    /** The slot's fast-registration region (invalid between commands). */
    public MemoryRegion region(int slot) {
        return regions[slot];
    }

    @Override
    public void submit(int slot, SrpWire.Op op, long lba, int blocks) throws InterruptedException {
        int length = blocks * SrpWire.BLOCK;
        MemoryRegion mr = regions[slot];
        int key = (stags[slot] + 1) & 0xFF;
        int stag = (mr.stag() & ~0xFF) | key;
        stags[slot] = stag;
        ByteBuffer cmd = cmdBuf.duplicate().position(slot * SrpWire.CMD);
        SrpWire.putCommand(cmd, op, slot, lba, blocks, stag, 0, length);
        credits.acquire();
        Access remote = op == SrpWire.Op.READ ? Access.REMOTE_WRITE : Access.REMOTE_READ;
        qp.postSend(SendWr.fastRegister(mr, Memory.of(buffers[slot], 0, length), key, Access.LOCAL_WRITE, remote)
                        .fastRegZeroBased().id(slot),
                SendWr.send().id(slot).local(cmdMr.sge(slot * SrpWire.CMD, SrpWire.CMD)));
    }

    /** Poller thread: responses complete commands; other completions only matter when they fail. */
    private void complete(Completion c) {
        if (c.opcode() != CompletionOpcode.RECV) {
            if (!c.isOk()) {
                done.add(new Done((int) c.id(), SrpWire.TRANSFER_ERROR, stags[(int) c.id()], false,
                        c.opcode() + " " + c.status()));
            }
            return;
        }
        if (!c.isOk()) {
            return; // flushed at close
        }
        int i = (int) c.id();
        int at = i * SrpWire.RSP;
        byte status = rspBuf.get(at + 1);
        int slot = rspBuf.getInt(at + 4);
        int delta = rspBuf.getInt(at + 8);
        boolean invalidated = c.hasInvalidatedStag() && c.invalidatedStag() == stags[slot];
        qp.postRecv(RecvWr.of(i, rspMr.sge(at, SrpWire.RSP)));
        credits.release(delta);
        done.add(new Done(slot, status, stags[slot], invalidated, null));
    }


    @Override
    public void close() {
        try {
            connection.disconnect().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            connection.close();
        } finally {
            poller.close();
            pd.close();
            cq.close();
        }
    }
}
