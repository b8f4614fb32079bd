package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Helpers of the hand-over tests: loopback socket pairs, line reads, and the RDMA WRITE + SEND check. */
final class HandOverFixture {
    private HandOverFixture() {
    }

    /** A connected loopback pair: [0] the connecting side, [1] the accepted side (both blocking). */
    static SocketChannel[] socketPair() throws IOException {
        try (ServerSocketChannel ss = ServerSocketChannel.open()) {
            ss.bind(new InetSocketAddress("127.0.0.1", 0));
            SocketChannel c = SocketChannel.open(ss.getLocalAddress());
            SocketChannel s = ss.accept();
            return new SocketChannel[] {c, s};
        }
    }

    static void writeAll(SocketChannel ch, byte[] b) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            ch.write(bb);
        }
    }

    static void writeLine(SocketChannel ch, String line) throws IOException {
        writeAll(ch, (line + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] bytes(ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        b.release();
        return a;
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /**
     * Streaming-mode read: reads until {@code buf} holds a whole line and at least {@code moreThan}
     * bytes after it; returns the line, leaves what follows it in {@code buf} (still in write mode: flip
     * it to hand the bytes over).
     */
    static String readLine(SocketChannel ch, ByteBuffer buf, int moreThan) throws IOException {
        while (true) {
            int nl = -1;
            for (int i = 0; i < buf.position(); i++) {
                if (buf.get(i) == '\n') {
                    nl = i;
                    break;
                }
            }
            if (nl >= 0 && buf.position() - nl - 1 >= moreThan) {
                byte[] line = new byte[nl];
                buf.flip();
                buf.get(line);
                buf.get();
                buf.compact();
                return new String(line, StandardCharsets.US_ASCII);
            }
            if (ch.read(buf) < 0) {
                throw new IOException("stream ended in streaming mode");
            }
        }
    }

    /** One QP with its PD and CQ. */
    record Ep(ProtectionDomain pd, CompletionQueue cq, QueuePair qp) {
        static Ep of(SoftPair.Side s) {
            return new Ep(s.pd, s.cq, s.qp);
        }

        static Ep create(SoftPair.Side s, String name) {
            CompletionQueue cq = s.dev.createCq(io.jrnic.verbs.CqInit.of(64).context(name));
            return new Ep(s.pd, cq, s.pd.createQp(QpInit.rc(cq).maxSendWr(16).maxRecvWr(16).context(name)));
        }

        List<Completion> await(int n) throws InterruptedException {
            List<Completion> out = new ArrayList<>();
            Completion[] batch = Completion.array(8);
            while (out.size() < n) {
                int k = cq.poll(batch, 0, Math.min(8, n - out.size()));
                for (int i = 0; i < k; i++) {
                    out.add(batch[i].snapshot());
                }
                if (k == 0) {
                    Thread.sleep(0, 200_000);
                }
            }
            return out;
        }
    }

    /** The target's side of the check: a region to write into and one posted receive. */
    static final class Target {
        final byte[] dst = new byte[64 * 1024];
        final byte[] inbox = new byte[64];
        final MemoryRegion dstMr;
        final MemoryRegion inboxMr;

        Target(SoftPair.Side side) {
            this(Ep.of(side));
        }

        Target(Ep side) {
            dstMr = side.pd().register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            inboxMr = side.pd().register(inbox, Access.LOCAL_WRITE);
            side.qp().postRecv(RecvWr.of(77, inboxMr.sge()));
        }

        RemoteBuffer advertise() {
            return dstMr.advertise();
        }
    }

    /**
     * {@code writer} (connected by {@code conn}, whose peer advertised {@code target}'s region in its
     * private data) does an RDMA WRITE of 64 KiB and a SEND of 64 bytes; both land byte for byte.
     */
    static void writeAndSend(SoftPair.Side writer, Connection conn, SoftPair.Side targetSide, Target target, long seed)
            throws InterruptedException {
        writeAndSend(Ep.of(writer), conn, Ep.of(targetSide), target, seed);
    }

    static void writeAndSend(Ep writer, Connection conn, Ep targetSide, Target target, long seed)
            throws InterruptedException {
        byte[] src = new byte[target.dst.length];
        new Random(seed).nextBytes(src);
        byte[] msg = Arrays.copyOf(("SEND after hand-over " + seed).getBytes(StandardCharsets.US_ASCII), 64);
        MemoryRegion srcMr = writer.pd().register(src, Access.LOCAL_WRITE);
        MemoryRegion msgMr = writer.pd().register(msg, Access.LOCAL_WRITE);
        RemoteBuffer rb = RemoteBuffer.parse(conn.peerPrivateData());
        writer.qp().postSend(SendWr.rdmaWrite().id(1).local(srcMr.sge()).remote(rb, 0).signaled(),
                SendWr.send().id(2).local(msgMr.sge()).signaled());
        for (Completion c : writer.await(2)) {
            assertEquals(CompletionStatus.SUCCESS, c.status(), c.toString());
        }
        Completion r = targetSide.await(1).get(0);
        assertEquals(CompletionStatus.SUCCESS, r.status(), r.toString());
        assertEquals(CompletionOpcode.RECV, r.opcode());
        assertEquals(77, r.id());
        assertEquals(64, r.byteLength());
        assertArrayEquals(msg, target.inbox);
        assertArrayEquals(src, target.dst, "RDMA WRITE placed every byte (the SEND came after it)");
        srcMr.close();
        msgMr.close();
    }
}
