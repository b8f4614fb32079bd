package io.jrnic.soft.net;

import io.netty.channel.EventLoop;
import java.io.IOException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/** A handed-back {@code java.nio} socket: its blocking mode is restored once the loop's selector let go of it. */
final class ForeignSocket {
    /** The selector drops a cancelled key at its next select: retry for up to this many milliseconds. */
    private static final int RETRIES = 200;

    private ForeignSocket() {
    }

    static void restoreBlocking(SocketChannel socket, boolean blocking, EventLoop loop, Runnable then) {
        attempt(socket, blocking, loop, then, RETRIES);
    }

    private static void attempt(SocketChannel socket, boolean blocking, EventLoop loop, Runnable then, int left) {
        try {
            socket.configureBlocking(blocking);
        } catch (IllegalBlockingModeException stillRegistered) {
            if (left > 0) {
                loop.schedule(() -> attempt(socket, blocking, loop, then, left - 1), 1, TimeUnit.MILLISECONDS);
                return;
            }
        } catch (IOException ignored) {
            // closed meanwhile: the caller finds out on its next use
        }
        then.run();
    }
}
