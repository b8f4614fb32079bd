package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Test fixture: a SEND ping-pong over a {@link SoftPair}: A sends {@code messages} tagged messages of {@code size}
 * octets, an echo thread on B sends each back, A checks every reply's bytes. How each side waits for its completions
 * is the test's ({@link Wait}: spinning on poll, blocking in take, arming and awaiting the channel...).
 */
final class EchoPingPong {
    /** Waits for at least one completion of {@code side}'s CQ into {@code into}; returns how many. */
    @FunctionalInterface
    interface Wait {
        int await(SoftPair.Side side, Completion[] into) throws Exception;
    }

    private EchoPingPong() {
    }

    static void run(SoftPair p, int messages, int size, Wait wait) throws Exception {
        byte[] aBytes = new byte[2 * size];
        MemoryRegion aBuf = p.a.pd.register(aBytes, Access.LOCAL_WRITE);
        MemoryRegion bBuf = p.b.pd.register(new byte[size], Access.LOCAL_WRITE);
        p.a.qp.postRecv(RecvWr.of(0, aBuf.sge(size, size)));
        p.b.qp.postRecv(RecvWr.of(0, bBuf.sge(0, size)));
        AtomicReference<Throwable> echoFailed = new AtomicReference<>();
        Thread echo = new Thread(() -> {
            try {
                Completion[] c = Completion.array(4);
                for (int got = 0; got < messages; ) {
                    int n = wait.await(p.b, c);
                    for (int i = 0; i < n; i++) {
                        assertEquals(CompletionStatus.SUCCESS, c[i].status());
                        if (c[i].opcode() == CompletionOpcode.RECV) {
                            got++;
                            p.b.qp.postRecv(RecvWr.of(got, bBuf.sge(0, size)));
                            p.b.qp.postSend(SendWr.send().id(got).local(bBuf.sge(0, size)));
                        }
                    }
                }
            } catch (Throwable t) {
                echoFailed.set(t);
            }
        }, "echo");
        echo.setDaemon(true);
        echo.start();
        byte[] expected = new byte[size];
        Completion[] c = Completion.array(4);
        for (int i = 0; i < messages; i++) {
            Arrays.fill(expected, (byte) i);
            System.arraycopy(expected, 0, aBytes, 0, size);
            p.a.qp.postSend(SendWr.send().id(i).local(aBuf.sge(0, size)).signaled());
            boolean replied = false;
            boolean sent = false;
            while (!replied || !sent) {
                int n = wait.await(p.a, c);
                for (int k = 0; k < n; k++) {
                    assertEquals(CompletionStatus.SUCCESS, c[k].status(), "message " + i);
                    replied |= c[k].opcode() == CompletionOpcode.RECV;
                    sent |= c[k].opcode() == CompletionOpcode.SEND;
                }
            }
            assertArrayEquals(expected, Arrays.copyOfRange(aBytes, size, 2 * size), "reply " + i);
            p.a.qp.postRecv(RecvWr.of(i + 1, aBuf.sge(size, size)));
        }
        echo.join(20_000);
        assertNull(echoFailed.get());
    }
}
