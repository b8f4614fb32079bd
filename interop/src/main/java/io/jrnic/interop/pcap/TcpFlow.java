package io.jrnic.interop.pcap;

/** One direction of a TCP connection: from {@code src} to {@code dst}. */
public record TcpFlow(Endpoint src, Endpoint dst) {
    public TcpFlow reverse() {
        return new TcpFlow(dst, src);
    }

    @Override
    public String toString() {
        return src + " > " + dst;
    }
}
