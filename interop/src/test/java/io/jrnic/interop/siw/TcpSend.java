package io.jrnic.interop.siw;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Child-JVM program for {@link SiwGuestHarnessTest}: connects to host:port and sends a text. */
public final class TcpSend {
    private TcpSend() {
    }

    public static void main(String[] args) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(args[0], Integer.parseInt(args[1])), 10_000);
            OutputStream out = s.getOutputStream();
            out.write(args[2].getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        System.out.println("sent from " + args[0]);
    }
}
