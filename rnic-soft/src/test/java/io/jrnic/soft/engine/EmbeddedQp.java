package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.MemoryTable;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A QP engine bound to an EmbeddedChannel in RTS, for tests that read what the transmitter writes: every send WR must
 * retire successfully and is collected in {@link #retired}, in order.
 */
record EmbeddedQp(QpEngine qp, EmbeddedChannel ch, MemoryTable table, List<SqEntry> retired) {

    static EmbeddedQp bind(StreamParams p) {
        MemoryTable table = new MemoryTable(16);
        List<SqEntry> retired = new ArrayList<>();
        QpEngine qp = new QpEngine(table, 1, 16, 16, new QpListener() {
            @Override
            public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
            }

            @Override
            public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                assertEquals(Status.SUCCESS, status);
                retired.add(e);
                return true;
            }

            @Override
            public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                return true;
            }
        });
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
        qp.bind(ch, p, "mpa", null, null);
        ch.runPendingTasks();
        return new EmbeddedQp(qp, ch, table, retired);
    }
}
