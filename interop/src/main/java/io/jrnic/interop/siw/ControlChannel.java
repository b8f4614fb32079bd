package io.jrnic.interop.siw;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Host end of the guest's command loop on the virtio-serial port "jrnic.ctl" (QEMU exposes it as
 * a unix socket). Protocol, one command at a time (see interop/siw-guest/init):
 * request {@code ID TIMEOUT_S BASE64(script)\n}; answer {@code @@BEGIN ID\n}, the output as
 * base64 lines, {@code @@END ID EXITCODE\n}. Lines of other ids (late answers of commands the
 * host gave up on) are skipped.
 */
final class ControlChannel implements AutoCloseable {
    /** The channel went quiet before the answer came: the caller decides whether the guest is hung or dead. */
    static final class SilentException extends IOException {
        private static final long serialVersionUID = 1L;

        SilentException(String message) {
            super(message);
        }
    }

    private static final String EOF = "\u0000eof";
    private final SocketChannel channel;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final AtomicLong ids = new AtomicLong();
    private final Thread reader;

    private ControlChannel(SocketChannel channel) {
        this.channel = channel;
        // Channel reads and writes directly: the Channels stream adapters share one lock, so a
        // blocked read would stall every write.
        reader = new Thread(this::readLines, "jrnic-siw-control");
        reader.setDaemon(true);
        reader.start();
    }

    private void readLines() {
        ByteBuffer buf = ByteBuffer.allocate(65536);
        StringBuilder line = new StringBuilder();
        try {
            while (channel.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    char c = (char) (buf.get() & 0xFF);
                    if (c == '\n') {
                        lines.add(line.toString());
                        line.setLength(0);
                    } else if (c != '\r') {
                        line.append(c);
                    }
                }
                buf.clear();
            }
        } catch (IOException e) {
            // closed: fall through to the end marker
        }
        lines.add(EOF);
    }

    static ControlChannel connect(Path socket) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new ControlChannel(ch);
    }

    /**
     * Runs {@code script} with sh in the guest. The guest kills it after {@code guestTimeout}
     * (exit 137); the host waits {@code guestTimeout + grace} for the answer.
     */
    synchronized ExecResult exec(String script, Duration guestTimeout, Duration grace) throws IOException {
        long t0 = System.nanoTime();
        String id = "c" + ids.incrementAndGet();
        long seconds = Math.max(1, (guestTimeout.toMillis() + 999) / 1000);
        String b64 = Base64.getEncoder().encodeToString(script.getBytes(StandardCharsets.UTF_8));
        ByteBuffer req = ByteBuffer.wrap((id + " " + seconds + " " + b64 + "\n").getBytes(StandardCharsets.US_ASCII));
        while (req.hasRemaining()) {
            channel.write(req);
        }
        long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds) + grace.toNanos();
        StringBuilder body = null;
        while (true) {
            String l;
            try {
                l = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for " + id, e);
            }
            if (l == null) {
                throw new SilentException("no answer to `" + script + "` within " + seconds + " s + "
                        + grace.toSeconds() + " s");
            }
            if (l.equals(EOF)) {
                lines.add(EOF);
                throw new SilentException("control channel closed while running `" + script + "`");
            }
            if (l.equals("@@BEGIN " + id)) {
                body = new StringBuilder();
            } else if (body != null && l.startsWith("@@END " + id + " ")) {
                int rc = Integer.parseInt(l.substring(("@@END " + id + " ").length()).trim());
                String output = new String(Base64.getMimeDecoder().decode(body.toString()), StandardCharsets.UTF_8);
                return new ExecResult(script, rc, output, Duration.ofNanos(System.nanoTime() - t0));
            } else if (body != null) {
                body.append(l);
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
