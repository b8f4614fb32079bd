package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import java.io.IOException;

/**
 * Receive in place: a thread polling the QP's completion queue reads the stream itself (one socket read into a
 * per-thread buffer, fed to the {@link Receiver} under the QP's lock), so a busy-polling consumer does not wait
 * for the event loop to be woken and scheduled. The {@link LoopReadGate} keeps its reads and the loop's in stream
 * order, and the stream's end (or a read error) seen by the loop closes the gate before the loop closes the socket.
 * Only on an epoll
 * stream whose pipeline holds just the Receiver; {@code -Djrnic.receiveInPlace=false} turns it off.
 */
final class ReceiveInPlace {
    static final boolean ENABLED = !"false".equals(System.getProperty("jrnic.receiveInPlace"));
    /** One read buffer per polling thread, as large as the loop's largest read; the decoder copies what it keeps. */
    private static final ThreadLocal<ByteBuf> BUFFER =
            ThreadLocal.withInitial(() -> Unpooled.directBuffer(QpEngine.RECV_MAX, QpEngine.RECV_MAX));

    /** A read's outcome besides a byte count: nothing there, or the stream failed under the read. */
    static final int NOTHING = 0;
    static final int FAILED = -1;

    private final AbstractEpollStreamChannel ch;
    private final LoopReadGate gate;
    private final Receiver rx;

    private ReceiveInPlace(AbstractEpollStreamChannel ch, LoopReadGate gate, Receiver rx) {
        this.ch = ch;
        this.gate = gate;
        this.rx = rx;
    }

    /** For a stream bound to {@code rx}, or null when it cannot be read in place. */
    static ReceiveInPlace of(Channel ch, Receiver rx) {
        ChannelPipeline pl = ch.pipeline();
        if (!ENABLED || !(ch instanceof AbstractEpollStreamChannel c) || !(ch.config().getRecvByteBufAllocator() instanceof LoopReadGate g)
                || pl.first() != rx || pl.last() != rx) {
            return null;
        }
        return new ReceiveInPlace(c, g, rx);
    }

    LoopReadGate gate() {
        return gate;
    }

    /**
     * Under the QP's lock: reads what the socket holds (one buffer at most) and feeds it to the Receiver. The bytes
     * read; {@link #NOTHING} when the loop is reading, the socket is empty or the stream ended (the loop sees the
     * end too and reports it); {@link #FAILED} when the read failed (the error is consumed: the caller reports it).
     */
    int read() {
        if (!gate.quiet() || !ch.isActive()) {
            return NOTHING;
        }
        ByteBuf b = BUFFER.get();
        if (!b.hasMemoryAddress()) {
            return NOTHING;
        }
        b.clear();
        int n;
        try {
            n = ch.fd().readAddress(b.memoryAddress(), 0, b.capacity());
        } catch (IOException e) {
            gate.end();
            return FAILED;
        }
        if (n <= 0) {
            if (n < 0) {
                gate.end();
            }
            return NOTHING;
        }
        b.writerIndex(n);
        rx.feed(b);
        return n;
    }
}
