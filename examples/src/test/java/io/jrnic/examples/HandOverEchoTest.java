package io.jrnic.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A connection-manager client (as siw's rdma_cm would be) against the plain-socket accept and hand-over. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandOverEchoTest {

    @Test
    void cmClientIsEchoedByTheHandedOverPlainSocket() throws Exception {
        echoed(false);
    }

    /**
     * A client that sends the next message only once the last one came back: the echo server sees each of its
     * SEND completions before the next RECV (it once counted only those that came after the last RECV, and waited).
     */
    @Test
    void clientWaitingForEachEchoGetsThemAllAndTheServerEnds() throws Exception {
        echoed(true);
    }

    private static void echoed(boolean lockstep) throws Exception {
        int count = 5;
        int size = 32;
        try (ServerSocketChannel ss = ServerSocketChannel.open(); RdmaDevice dev = Rdma.open("soft")) {
            ss.bind(new InetSocketAddress("127.0.0.1", 0));
            PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> {
                try {
                    return HandOverEcho.serve(ss, count, size, out);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(64);
            QueuePair qp = pd.createQp(QpInit.rc(cq));
            byte[] sent = new byte[count * size];
            byte[] back = new byte[count * size];
            for (int i = 0; i < sent.length; i++) {
                sent[i] = (byte) (i * 7 + 1);
            }
            MemoryRegion s = pd.register(sent, Access.LOCAL_WRITE);
            MemoryRegion b = pd.register(back, Access.LOCAL_WRITE);
            for (int i = 0; i < count; i++) {
                qp.postRecv(RecvWr.of(i, b.sge(i * size, size)));
            }
            Connection c = dev.connectionManager().connect((InetSocketAddress) ss.getLocalAddress(), qp,
                    ConnectOptions.defaults().privateData(new byte[] {1, 2, 3})).get(10, TimeUnit.SECONDS);
            int recvs = 0;
            for (int i = 0; i < count; i++) {
                qp.postSend(SendWr.send().id(100 + i).local(s.sge(i * size, size)).signaled());
                if (lockstep) {
                    recvs = awaitRecvs(cq, i + 1, recvs, size);
                }
            }
            awaitRecvs(cq, count, recvs, size);
            assertEquals(count, server.get(10, TimeUnit.SECONDS));
            assertArrayEquals(sent, back, Arrays.toString(back));
            c.disconnect();
        }
    }

    /** Polls until {@code want} receives completed ({@code recvs} already had); sends' completions are passed over. */
    private static int awaitRecvs(CompletionQueue cq, int want, int recvs, int size) throws Exception {
        while (recvs < want) {
            Completion x = HelloThenRdma.await(cq);
            if (x.opcode() == io.jrnic.verbs.CompletionOpcode.RECV) {
                assertEquals(size, x.byteLength());
                recvs++;
            }
        }
        return recvs;
    }
}
