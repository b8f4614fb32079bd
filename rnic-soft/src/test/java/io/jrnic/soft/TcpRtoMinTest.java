package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.soft.net.RtoMin;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.ConnectOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ConnectOptions#tcpRtoMin}: the minimum RTO on both ends' sockets, each from its own side's options (the
 * listener's for an accepted stream), on kernels with {@code TCP_RTO_MIN_US}. What it does to READ under loss is
 * measured across two namespaces (README, "Two hosts over a real link").
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpRtoMinTest {
    @Test
    void bothEndsSocketsCarryTheirSidesMinimum() throws Exception {
        assumeTheKernelHasTheOption();
        ConnectOptions connect = ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE)
                .tcpRtoMin(Duration.ofMillis(20));
        ConnectOptions listen = ConnectOptions.defaults().tcpRtoMin(Duration.ofMillis(40));
        try (SoftPair p = new SoftPair(connect, listen, AcceptOptions.defaults(), null)) {
            p.connB();
            assertEquals(20_000, RtoMin.of(SoftPair.engineOf(p.a.qp).channel()));
            assertEquals(40_000, RtoMin.of(SoftPair.engineOf(p.b.qp).channel()));
        }
    }

    @Test
    void withoutItTheSocketsKeepTheKernelsMinimum() throws Exception {
        assumeTheKernelHasTheOption();
        try (SoftPair p = new SoftPair()) {
            p.connB();
            assertEquals(200_000, RtoMin.of(SoftPair.engineOf(p.a.qp).channel()));
            assertEquals(200_000, RtoMin.of(SoftPair.engineOf(p.b.qp).channel()));
        }
    }

    /** Below two clock ticks the kernel refuses the value: the stream still sets up, at the kernel's minimum. */
    @Test
    void aValueTheKernelRefusesLeavesTheStreamAsItIs() throws Exception {
        assumeTheKernelHasTheOption();
        ConnectOptions connect = ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE)
                .tcpRtoMin(Duration.ofMillis(1));
        try (SoftPair p = new SoftPair(connect, ConnectOptions.defaults(), AcceptOptions.defaults(), null)) {
            p.connB();
            long v = RtoMin.of(SoftPair.engineOf(p.a.qp).channel());
            assertTrue(v == 1_000 || v == 200_000, "1 ms where the kernel ticks at 1000 Hz, else the kernel's: " + v);
        }
    }

    @Test
    void aMinimumOutsideOneTo200MillisecondsIsRefused() {
        ConnectOptions o = ConnectOptions.defaults();
        assertThrows(IllegalArgumentException.class, () -> o.tcpRtoMin(Duration.ofMillis(201)));
        assertThrows(IllegalArgumentException.class, () -> o.tcpRtoMin(Duration.ofNanos(999_999)));
        assertThrows(IllegalArgumentException.class, () -> o.tcpRtoMin(Duration.ofMillis(-5)));
        assertEquals(Duration.ZERO, o.tcpRtoMin(Duration.ZERO).tcpRtoMin());
        assertEquals(Duration.ofMillis(200), o.tcpRtoMin(Duration.ofMillis(200)).tcpRtoMin());
    }

    /** An unconnected epoll socket tells whether this kernel knows TCP_RTO_MIN_US (6.15 and later). */
    private static void assumeTheKernelHasTheOption() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "TCP_RTO_MIN_US needs the epoll transport");
        EpollEventLoopGroup g = new EpollEventLoopGroup(1);
        try {
            Channel ch = new Bootstrap().group(g).channel(EpollSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                        }
                    }).register().sync().channel();
            long v = RtoMin.of(ch);
            ch.close().sync();
            Assumptions.assumeTrue(v > 0, "this kernel has no TCP_RTO_MIN_US");
            assertEquals(200_000, v, "an untouched socket has the kernel's 200 ms");
        } finally {
            g.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
