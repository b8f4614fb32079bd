package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.soft.engine.InPlaceProbe;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.Channel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The descriptor race of issue 20 (spec-notes/engine.md, "Close"): a bound stream closed by another thread while a
 * polling thread reads it in place. The probe holds the poller in its read window (the QP's ownership held, the
 * checks passed, just before the system call) while another thread closes the channel; if the descriptor closes in
 * that window, the probe opens pipes until one takes the closed descriptor's number, with foreign bytes in it, as a
 * socket of another connection would. The close is the QP owner's: it waits until the read is done, so the poller
 * reads its own stream and never a reused descriptor.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InPlaceCloseOrderTest {
    private static final int FOREIGN = 64;

    @Test
    void aCloseWaitsForAnInPlaceReadSoNoReusedDescriptorIsEverRead() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        List<FileDescriptor[]> pipes = new ArrayList<>();
        AtomicBoolean fired = new AtomicBoolean();
        AtomicBoolean closedDuringRead = new AtomicBoolean();
        AtomicReference<Channel> stream = new AtomicReference<>();
        try (SoftPair p = new SoftPair()) {
            p.connB();
            MemoryRegion aBuf = p.a.pd.register(new byte[64], Access.LOCAL_WRITE);
            MemoryRegion bBuf = p.b.pd.register(new byte[64], Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(1, bBuf.sge()));
            p.a.qp.postSend(SendWr.send().id(1).local(aBuf.sge()));
            p.b.awaitOne(); // B's first FPDU exchanged: its poller may read in place
            p.b.qp.postRecv(RecvWr.of(2, bBuf.sge())); // and, a message being owed to its CQ, its empty polls do
            InPlaceProbe.beforeRead(ch -> {
                if (!fired.compareAndSet(false, true)) {
                    return;
                }
                stream.set(ch);
                int number = ((UnixChannel) ch).fd().intValue();
                Thread closer = new Thread(ch::close, "closer");
                closer.start();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                while (ch.isOpen() && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                if (ch.isOpen()) {
                    return; // the close waits for this read: the descriptor cannot be reused under it
                }
                closedDuringRead.set(true);
                try { // as another connection's socket would: take the number, with bytes to read
                    for (int i = 0; i < 16; i++) {
                        FileDescriptor[] pipe = FileDescriptor.pipe();
                        pipes.add(pipe);
                        pipe[1].write(ByteBuffer.allocateDirect(FOREIGN), 0, FOREIGN);
                        if (pipe[0].intValue() == number) {
                            break;
                        }
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Completion[] c = Completion.array(8);
            AtomicReference<Throwable> escaped = new AtomicReference<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            try {
                while (System.nanoTime() < end && (!fired.get() || p.b.qp.state() == QpState.RTS)) {
                    p.b.cq.poll(c); // drives the in-place read; nothing may escape it
                }
            } catch (Throwable t) {
                escaped.set(t);
            } finally {
                InPlaceProbe.beforeRead(null);
            }
            assertTrue(fired.get(), "B's poller never read in place");
            assertNull(escaped.get(), "an exception escaped CompletionQueue.poll");
            assertFalse(closedDuringRead.get(), "the descriptor closed while a polling thread was about to read it");
            assertTrue(p.b.qp.state() != QpState.RTS, "B's QP never saw its stream close");
            SoftPair.eventually(() -> !stream.get().isOpen());
        } finally {
            ByteBuffer sink = ByteBuffer.allocateDirect(FOREIGN);
            for (FileDescriptor[] pipe : pipes) {
                sink.clear();
                int n = pipe[0].read(sink, 0, FOREIGN);
                pipe[0].close();
                pipe[1].close();
                assertEquals(FOREIGN, n, "another descriptor's bytes were read by the QP's poller");
            }
        }
    }
}
