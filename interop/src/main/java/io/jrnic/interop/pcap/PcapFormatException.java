package io.jrnic.interop.pcap;

import java.io.IOException;

/** A capture file that is not classic pcap, or is truncated or corrupt: the message says where. */
public final class PcapFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public PcapFormatException(String message) {
        super(message);
    }
}
