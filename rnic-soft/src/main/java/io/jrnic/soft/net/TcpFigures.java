package io.jrnic.soft.net;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollTcpInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The host TCP figures of a stream beside the RNIC's (the OpenRDMA MIB view): Linux TCP_INFO through
 * Netty's epoll channel. Java NIO exposes no TCP_INFO (only socket options such as buffer sizes),
 * so a NIO stream, or a closed one, gives an empty map.
 */
public final class TcpFigures {
    private TcpFigures() {
    }

    public static Map<String, Long> of(Channel ch) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (ch instanceof EpollSocketChannel e && e.isOpen()) {
            try {
                EpollTcpInfo i = e.tcpInfo();
                m.put("rttMicros", i.rtt());
                m.put("rttVarMicros", i.rttvar());
                m.put("sndCwnd", i.sndCwnd());
                m.put("sndMss", i.sndMss());
                m.put("retransmits", (long) i.retransmits());
                m.put("totalRetrans", i.totalRetrans());
                m.put("lost", i.lost());
                m.put("unacked", i.unacked());
            } catch (RuntimeException closedMeanwhile) {
                m.clear();
            }
        }
        return m;
    }
}
