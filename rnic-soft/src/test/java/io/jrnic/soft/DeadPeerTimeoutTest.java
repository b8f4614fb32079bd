package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.ConnectOptions;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ConnectOptions#deadPeerTimeout}: the kernel's keepalive and user timeout on both ends' sockets, set from each
 * side's own options (the listener's for an accepted stream). That the kernel then ends a stream whose peer went
 * silent is shown across two network namespaces with the link cut (cli's {@code TwoHostFaultTest}): loopback cannot lose
 * a peer without a reset.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadPeerTimeoutTest {
    @Test
    void bothEndsSocketsCarryTheirSidesTimeout() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "the dead peer timeout needs the epoll transport");
        ConnectOptions connect = ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE)
                .deadPeerTimeout(Duration.ofSeconds(10));
        ConnectOptions listen = ConnectOptions.defaults().deadPeerTimeout(Duration.ofSeconds(30));
        try (SoftPair p = new SoftPair(connect, listen, AcceptOptions.defaults(), null)) {
            p.connB();
            check(SoftPair.engineOf(p.a.qp).channel(), 10);
            check(SoftPair.engineOf(p.b.qp).channel(), 30);
        }
    }

    /** A timeout past what the kernel takes as a keepalive idle time still sets up (the idle time is capped). */
    @Test
    void aLongTimeoutStillConnects() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "the dead peer timeout needs the epoll transport");
        ConnectOptions connect = ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE)
                .deadPeerTimeout(Duration.ofDays(2));
        try (SoftPair p = new SoftPair(connect, ConnectOptions.defaults(), AcceptOptions.defaults(), null)) {
            p.connB();
            Channel ch = SoftPair.engineOf(p.a.qp).channel();
            assertEquals(32767, ch.config().getOption(EpollChannelOption.TCP_KEEPIDLE));
            assertEquals((int) Duration.ofDays(2).toMillis(), ch.config().getOption(EpollChannelOption.TCP_USER_TIMEOUT));
        }
    }

    @Test
    void withoutItTheSocketsAreAsTcpLeavesThem() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "the dead peer timeout needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            for (Channel ch : new Channel[] {SoftPair.engineOf(p.a.qp).channel(), SoftPair.engineOf(p.b.qp).channel()}) {
                assertFalse(ch.config().getOption(ChannelOption.SO_KEEPALIVE));
                assertEquals(0, ch.config().getOption(EpollChannelOption.TCP_USER_TIMEOUT));
            }
        }
    }

    @Test
    void aTimeoutUnderTwoSecondsOrNegativeIsRefused() {
        ConnectOptions o = ConnectOptions.defaults();
        assertThrows(IllegalArgumentException.class, () -> o.deadPeerTimeout(Duration.ofMillis(1500)));
        assertThrows(IllegalArgumentException.class, () -> o.deadPeerTimeout(Duration.ofSeconds(-1)));
        assertEquals(Duration.ZERO, o.deadPeerTimeout(Duration.ZERO).deadPeerTimeout());
    }

    /** Keepalive from half the timeout, once a second, and the user timeout: the stream ends at {@code seconds}. */
    private static void check(Channel ch, int seconds) {
        assertEquals(true, ch.config().getOption(ChannelOption.SO_KEEPALIVE));
        assertEquals(seconds / 2, ch.config().getOption(EpollChannelOption.TCP_KEEPIDLE));
        assertEquals(1, ch.config().getOption(EpollChannelOption.TCP_KEEPINTVL));
        assertEquals(seconds * 1000, ch.config().getOption(EpollChannelOption.TCP_USER_TIMEOUT));
    }
}
