package io.jrnic.soft.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.IntegerUnixChannelOption;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The minimum TCP retransmission timeout of a stream's socket ({@link io.jrnic.verbs.ConnectOptions#tcpRtoMin}):
 * Linux's {@code TCP_RTO_MIN_US} (include/uapi/linux/tcp.h, 45 at level {@code IPPROTO_TCP}; kernel 6.15 and
 * later), which the kernel takes between two clock ticks and its own 200 ms. It is also the wait a tail loss probe adds
 * when one segment is in flight. Epoll streams only. Best effort: where the kernel refuses it, the stream keeps the
 * kernel's minimum and the first refusal is logged.
 */
public final class RtoMin {
    /** {@code setsockopt(fd, IPPROTO_TCP, TCP_RTO_MIN_US, int microseconds)}. */
    static final IntegerUnixChannelOption TCP_RTO_MIN_US = new IntegerUnixChannelOption("TCP_RTO_MIN_US", 6, 45);
    private static final Logger LOG = LoggerFactory.getLogger(RtoMin.class);
    private static final AtomicBoolean REFUSAL_LOGGED = new AtomicBoolean();

    private RtoMin() {
    }

    /**
     * Sets {@code micros} on {@code ch} (before it connects, or as it is accepted); 0 leaves the socket as it is.
     */
    public static void apply(Channel ch, long micros) {
        if (micros <= 0 || !(ch instanceof EpollSocketChannel)) {
            return;
        }
        try {
            ch.config().setOption(TCP_RTO_MIN_US, (int) Math.min(Integer.MAX_VALUE, micros));
        } catch (ChannelException e) {
            if (REFUSAL_LOGGED.compareAndSet(false, true)) {
                LOG.warn("TCP_RTO_MIN_US of {} us refused ({}): streams keep the kernel's minimum RTO", micros,
                        e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
            }
        }
    }

    /** The socket's minimum RTO in microseconds as the kernel reports it, or -1 where it cannot say. */
    public static long of(Channel ch) {
        if (!(ch instanceof EpollSocketChannel)) {
            return -1;
        }
        try {
            Integer v = ch.config().getOption(TCP_RTO_MIN_US);
            return v == null ? -1 : v;
        } catch (ChannelException e) {
            return -1;
        }
    }
}
