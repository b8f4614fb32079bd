package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RtrType;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connects do not use Netty's resolver group (it would listen to each event loop's termination on Netty's
 * GlobalEventExecutor): an unresolved remote address is resolved by the connect itself.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnresolvedRemoteTest {

    @Test
    void anUnresolvedRemoteAddressIsResolvedByTheConnect() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Listener listener = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            listener.onConnectRequest(req -> req.accept(b.qp, AcceptOptions.defaults()));
            InetSocketAddress remote = InetSocketAddress.createUnresolved("127.0.0.1", listener.localAddress().getPort());
            Connection c = a.cm.connect(remote, a.qp, ConnectOptions.defaults().peerToPeer(RtrType.WRITE))
                    .get(10, TimeUnit.SECONDS);
            assertEquals(Connection.State.ESTABLISHED, c.state());
            assertEquals(QpState.RTS, a.qp.state());
        }
    }
}
