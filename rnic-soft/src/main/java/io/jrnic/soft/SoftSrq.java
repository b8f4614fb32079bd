package io.jrnic.soft;

import io.jrnic.soft.engine.RqEntry;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.StagMemo;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.spi.SrqSpi;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A shared receive queue: a thread-safe FIFO of resolved receives; each QP using it takes the oldest
 * one when an untagged message starts on its stream. Receives never taken are flushed by the API.
 */
final class SoftSrq implements SrqSpi {
    final ConcurrentLinkedQueue<RqEntry> queue = new ConcurrentLinkedQueue<>();
    /** The posting side's STag lookups (posts are serialized by the verbs layer's SRQ monitor). */
    private final StagMemo stags;

    SoftSrq(MemoryTable table) {
        this.stags = new StagMemo(table);
    }

    @Override
    public void postRecv(RecvWr[] wrs, int offset, int count) {
        for (int i = 0; i < count; i++) {
            RecvWr wr = wrs[offset + i];
            RqEntry e = new RqEntry(wr);
            SoftQp.resolve(wr, e.sgl, stags);
            queue.add(e);
        }
    }

    @Override
    public void close() {
        queue.clear();
    }
}
