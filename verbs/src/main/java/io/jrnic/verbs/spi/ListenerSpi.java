package io.jrnic.verbs.spi;

import java.net.InetSocketAddress;

public interface ListenerSpi {
    /** The bound address (with the real port when 0 was asked). */
    InetSocketAddress localAddress();

    /** Stop accepting; pending requests not yet accepted are rejected. */
    void close();
}
