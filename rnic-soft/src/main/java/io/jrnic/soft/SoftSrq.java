package io.jrnic.soft;

import io.jrnic.soft.engine.RqEntry;
import io.jrnic.soft.engine.Sgl;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.spi.SrqSpi;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A shared receive queue: a thread-safe FIFO of resolved receives; each QP using it takes the oldest
 * one when an untagged message starts on its stream. Receives never taken are flushed by the API.
 */
final class SoftSrq implements SrqSpi {
    final ConcurrentLinkedQueue<RqEntry> queue = new ConcurrentLinkedQueue<>();
    private final MemoryTable table;

    SoftSrq(MemoryTable table) {
        this.table = table;
    }

    @Override
    public void postRecv(RecvWr[] wrs, int offset, int count) {
        for (int i = 0; i < count; i++) {
            RecvWr wr = wrs[offset + i];
            RqEntry e = new RqEntry(wr);
            Sgl sgl = e.sgl;
            for (int j = 0; j < wr.sgeCount(); j++) {
                SoftRegion r = table.lookup(wr.sgeRegion(j).stag());
                sgl.add(r == null ? MemoryTable.invalidEntry() : r, wr.sgeOffset(j), wr.sgeLength(j));
            }
            queue.add(e);
        }
    }

    @Override
    public void close() {
        queue.clear();
    }
}
