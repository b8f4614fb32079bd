package io.jrnic.interop.pcap;

import java.net.Inet6Address;
import java.net.InetAddress;

/** An IP address and TCP port. */
public record Endpoint(InetAddress address, int port) {
    @Override
    public String toString() {
        String a = address.getHostAddress();
        return (address instanceof Inet6Address ? "[" + a + "]" : a) + ":" + port;
    }
}
