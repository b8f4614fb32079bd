package io.jrnic.soft.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollSocketChannel;

/**
 * The dead peer timeout on a stream's socket ({@link io.jrnic.verbs.ConnectOptions#deadPeerTimeout}): TCP keepalive,
 * probing an idle stream from half the timeout, once a second, and {@code TCP_USER_TIMEOUT}, after which the
 * kernel ends a stream that heard nothing from its peer (tcp(7): with keepalive on, the user timeout decides when
 * the probes have failed; with data unacknowledged, when the retransmissions have). The kernel reports it as an
 * error on the socket ({@code ETIMEDOUT}), which the engine takes as any LLP error. Epoll streams only: NIO has no
 * user timeout.
 */
public final class DeadPeer {
    /** Linux's largest TCP_KEEPIDLE (include/net/tcp.h, MAX_TCP_KEEPIDLE), seconds. */
    static final int MAX_KEEPIDLE = 32767;

    private DeadPeer() {
    }

    /** Sets the timeout on {@code ch} (before it connects, or as it is accepted); 0 leaves the socket as it is. */
    public static void apply(Channel ch, long timeoutMillis) {
        if (timeoutMillis <= 0 || !(ch instanceof EpollSocketChannel)) {
            return;
        }
        long seconds = Math.max(2, timeoutMillis / 1000);
        ch.config().setOption(ChannelOption.SO_KEEPALIVE, true);
        // the kernel takes at most MAX_TCP_KEEPIDLE; no TCP_KEEPCNT: with a user timeout the kernel ignores it
        ch.config().setOption(EpollChannelOption.TCP_KEEPIDLE, (int) Math.min(MAX_KEEPIDLE, seconds / 2));
        ch.config().setOption(EpollChannelOption.TCP_KEEPINTVL, 1);
        ch.config().setOption(EpollChannelOption.TCP_USER_TIMEOUT, (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
    }
}
