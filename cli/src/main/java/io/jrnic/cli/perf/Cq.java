package io.jrnic.cli.perf;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeoutException;

/** Completion-queue and memory polling helpers shared by both roles. */
final class Cq {
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);

    private final CompletionQueue cq;
    final Completion[] batch = Completion.array(64);

    Cq(CompletionQueue cq) {
        this.cq = cq;
    }

    /** Polls a batch (never blocks); throws {@link WorkFailed} on the first completion in error. */
    int poll() {
        int n = cq.poll(batch);
        for (int i = 0; i < n; i++) {
            if (!batch[i].isOk()) {
                throw new WorkFailed(batch[i]);
            }
        }
        return n;
    }

    static boolean isRecv(Completion c) {
        return c.opcode() == CompletionOpcode.RECV || c.opcode() == CompletionOpcode.RECV_IMMEDIATE;
    }

    /** Acquire-read of a byte the peer places by RDMA WRITE. */
    static byte peek(byte[] b, int i) {
        return (byte) BYTES.getAcquire(b, i);
    }

    /** Waits until {@code b[i] == v}; {@code abort} is checked now and then. */
    static void awaitByte(byte[] b, int i, byte v, Deadline d, Check abort) throws TimeoutException, java.io.IOException {
        int n = 0;
        while (peek(b, i) != v) {
            if ((++n & 255) == 0 && abort != null) {
                String why = abort.why();
                if (why != null) {
                    throw new TimeoutException(why);
                }
            }
            d.idle("byte " + i + " to become " + (v & 0xFF));
        }
        d.progress();
    }

    /** A periodic abort check: a reason to stop, or null. */
    interface Check {
        String why() throws java.io.IOException;
    }

    /** A completion in error. */
    static final class WorkFailed extends RuntimeException {
        WorkFailed(Completion c) {
            super("wr " + c.id() + " " + c.opcode() + ": " + c.status()
                    + (c.terminate() == null ? "" : " terminate " + c.terminate()));
        }
    }
}
