package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.CqInit;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * rping (rdma-core librdmacm/examples) on the verbs API, wire-compatible with it. Per ping: the client
 * SENDs a 16-byte descriptor {buf u64, rkey u32, size u32, big-endian} of its source buffer; the
 * server RDMA READs it and SENDs a go-ahead; the client SENDs the descriptor of its sink buffer; the
 * server RDMA WRITEs the data (strlen + 1 bytes) there and SENDs a go-ahead. The data is
 * "rdma-ping-N: " followed by characters 'A'..'z' starting at a per-ping rotating offset, NUL-terminated.
 * IRD/ORD 1 as rping. Every wait gives up after {@link #STALL_SECONDS} s without progress.
 */
public final class Rping {
    public static final int DEFAULT_PORT = 7174;
    public static final int DEFAULT_SIZE = 64;
    /** sizeof(stringify(INT_MAX)) + sizeof("rdma-ping-%d: ") in rping. */
    public static final int MIN_SIZE = 26;
    public static final int MAX_SIZE = 64 * 1024 - 1;
    static final int INFO_SIZE = 16;
    static final long STALL_SECONDS = 10;
    private static final int FIRST = 'A';
    private static final int LAST = 'z';

    private Rping() {
    }

    /** Fills {@code buf} with ping {@code ping}'s text starting at character {@code start}. */
    public static void fill(byte[] buf, int size, int ping, int start) {
        byte[] head = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int n = Math.min(head.length, size - 1);
        System.arraycopy(head, 0, buf, 0, n);
        int c = start;
        for (int i = n; i < size; i++) {
            buf[i] = (byte) c;
            c = c == LAST ? FIRST : c + 1;
        }
        buf[size - 1] = 0;
    }

    /** The rotating start character after {@code start}. */
    public static int nextStart(int start) {
        return start == LAST ? FIRST : start + 1;
    }

    /** The C string in buf (up to its first NUL). */
    static String cString(byte[] buf) {
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, StandardCharsets.US_ASCII);
    }

    static void writeInfo(byte[] dst, long addr, int rkey, int size) {
        ByteBuffer.wrap(dst).putLong(0, addr).putInt(8, rkey).putInt(12, size);   // network byte order
    }

    static ConnectOptions options(ConnectOptions base) {
        // rping's exchange uses Send, Write and Read only: its ULP does not agree on RFC 7306's extensions
        return base.ird(1).ord(1).rdmapExtensions(false);
    }

    /** One endpoint's resources. */
    static final class Endpoint implements AutoCloseable {
        final RdmaDevice dev;
        private final boolean ownsDevice;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final ConnectionManager cm;
        final byte[] recvBytes = new byte[INFO_SIZE];
        final byte[] sendBytes = new byte[INFO_SIZE];
        final byte[] rdmaBytes;
        final MemoryRegion recvMr;
        final MemoryRegion sendMr;
        final MemoryRegion rdmaMr;
        final Completion[] wcs = Completion.array(16);
        QueuePair qp;
        RecvWr recv;
        boolean flushed;
        final int[] pending = new int[CompletionOpcode.values().length];

        Endpoint(String provider, int size) {
            this(Rdma.open(provider), true, size);
        }

        /** An endpoint on a shared device (closing it leaves the device open). */
        Endpoint(RdmaDevice device, boolean ownsDevice, int size) {
            dev = device;
            this.ownsDevice = ownsDevice;
            pd = dev.allocatePd();
            cq = dev.createCq(CqInit.of(2 * 16 + 4).context("rping"));
            cm = dev.connectionManager();
            rdmaBytes = new byte[size];
            recvMr = pd.register(recvBytes, Access.LOCAL_WRITE);
            sendMr = pd.register(sendBytes, Access.LOCAL_WRITE);
            rdmaMr = pd.register(rdmaBytes, Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
        }

        QueuePair createQp() {
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(16).maxRecvWr(2).maxSge(1).context("rping"));
            recv = RecvWr.of(1, recvMr.sge());
            qp.postRecv(recv);
            return qp;
        }

        /**
         * Waits for a completion of {@code want} (completions of other kinds met on the way are counted
         * for later waits); a RECV is length-checked and its receive re-posted at once, as rping does.
         * Returns false when the queue pair was flushed (the peer disconnected).
         */
        boolean await(CompletionOpcode want) throws TimeoutException {
            Deadline d = Deadline.in(TimeUnit.SECONDS.toNanos(STALL_SECONDS));
            while (pending[want.ordinal()] == 0) {
                int n = cq.poll(wcs, 0, 1);
                if (n == 1) {
                    Completion c = wcs[0];
                    if (c.status() == CompletionStatus.WR_FLUSH_ERROR) {
                        flushed = true;
                        return false;
                    }
                    if (!c.isOk()) {
                        throw new IllegalStateException("cq completion failed: " + c.status()
                                + (c.terminate() == null ? "" : " " + c.terminate()));
                    }
                    if (c.opcode() == CompletionOpcode.RECV) {
                        if (c.byteLength() != INFO_SIZE) {
                            throw new IllegalStateException("Received bogus data, size " + c.byteLength());
                        }
                        qp.postRecv(recv);
                    }
                    pending[c.opcode().ordinal()]++;
                    d = Deadline.in(TimeUnit.SECONDS.toNanos(STALL_SECONDS));
                } else {
                    if (flushed || (qp.connection() != null && qp.connection().disconnected().isDone())) {
                        return false;
                    }
                    d.idle(want + " completion");
                }
            }
            pending[want.ordinal()]--;
            return true;
        }

        @Override
        public void close() {
            if (ownsDevice) {
                dev.close();
                return;
            }
            for (AutoCloseable c : new AutoCloseable[] {qp, recvMr, sendMr, rdmaMr, cq, pd}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (Exception ignored) {
                    // best effort: the device stays open for the next client
                }
            }
        }
    }

    /** The server: serves one client (as rping without -P) until it disconnects. */
    public static final class Server implements AutoCloseable {
        private final Endpoint ep;
        private final Listener listener;
        private final CompletableFuture<Connection> conn = new CompletableFuture<>();
        private final int size;

        public Server(String provider, InetSocketAddress bind, int size, ConnectOptions base) {
            this.size = size;
            this.ep = new Endpoint(provider, size);
            try {
                listener = ep.cm.listen(bind, options(base));
            } catch (RuntimeException e) {
                ep.close();
                throw e;
            }
            listener.onConnectRequest(req -> {
                if (conn.isDone() || ep.qp != null) {
                    req.reject();
                    return;
                }
                try {
                    req.accept(ep.createQp(), AcceptOptions.defaults().ird(1).ord(1)).whenComplete((c, e) -> {
                        if (e != null) {
                            conn.completeExceptionally(e);
                        } else {
                            conn.complete(c);
                        }
                    });
                } catch (RuntimeException e) {
                    conn.completeExceptionally(e);
                }
            });
        }

        public InetSocketAddress localAddress() {
            return listener.localAddress();
        }

        /** The state of the QP that served the client (null before one was accepted). */
        public io.jrnic.verbs.QpState qpState() {
            return ep.qp == null ? null : ep.qp.state();
        }

        /** Waits up to {@code acceptSeconds} for a client, then serves it; returns the pings served. */
        public long serve(long acceptSeconds, PrintWriter verbose) throws Exception {
            conn.get(acceptSeconds, TimeUnit.SECONDS);
            return serveClient(ep, size, verbose);
        }

        @Override
        public void close() {
            ep.close();
        }
    }

    /** rping's server loop on one connected endpoint, until the client disconnects; returns the pings served. */
    static long serveClient(Endpoint ep, int size, PrintWriter verbose) throws Exception {
            QueuePair qp = ep.qp;
            SendWr goAhead = SendWr.send().id(2).local(ep.sendMr.sge()).signaled();
            SendWr rdma = SendWr.rdmaRead().id(3);
            ByteBuffer info = ByteBuffer.wrap(ep.recvBytes);
            long served = 0;
            while (true) {
                if (!ep.await(CompletionOpcode.RECV)) {
                    return served;                     // client disconnected
                }
                long addr = info.getLong(0);
                int rkey = info.getInt(8);
                int len = info.getInt(12);
                if (len < 1 || len > size) {
                    throw new IllegalStateException("client source buffer of " + Integer.toUnsignedString(len)
                            + " bytes does not fit the server's " + size);
                }
                rdma.opcode(io.jrnic.verbs.WrOpcode.RDMA_READ).local(ep.rdmaMr.sge(0, len)).remote(rkey, addr).signaled();
                qp.postSend(rdma);
                if (!ep.await(CompletionOpcode.RDMA_READ)) {
                    return served;
                }
                if (verbose != null) {
                    verbose.println("server ping data: " + cString(ep.rdmaBytes));
                    verbose.flush();
                }
                qp.postSend(goAhead);
                if (!ep.await(CompletionOpcode.SEND) || !ep.await(CompletionOpcode.RECV)) {
                    return served;
                }
                addr = info.getLong(0);
                rkey = info.getInt(8);
                int strlen = cString(ep.rdmaBytes).length() + 1;
                if (Integer.toUnsignedLong(info.getInt(12)) < Math.min(strlen, size)) {
                    throw new IllegalStateException("client sink buffer smaller than " + strlen + " bytes");
                }
                rdma.opcode(io.jrnic.verbs.WrOpcode.RDMA_WRITE).local(ep.rdmaMr.sge(0, Math.min(strlen, size)))
                        .remote(rkey, addr).signaled();
                qp.postSend(rdma);
                if (!ep.await(CompletionOpcode.RDMA_WRITE)) {
                    return served;
                }
                qp.postSend(goAhead);
                if (!ep.await(CompletionOpcode.SEND)) {
                    return served;
                }
                served++;
            }
    }

    /** The client: {@code count} pings (0 = until the wall-clock cap), optionally validated and printed. */
    public static long client(String provider, InetSocketAddress server, int count, int size, boolean validate,
                              PrintWriter verbose, ConnectOptions base, long maxSeconds) throws Exception {
        return client(provider, server, count, size, validate, verbose, base, maxSeconds, null);
    }

    /**
     * As {@link #client(String, InetSocketAddress, int, int, boolean, PrintWriter, ConnectOptions, long)}; {@code ended}
     * (may be null) is told, also when the run fails, the pings completed and the QP's state after the disconnect.
     */
    public static long client(String provider, InetSocketAddress server, int count, int size, boolean validate,
                              PrintWriter verbose, ConnectOptions base, long maxSeconds,
                              java.util.function.BiConsumer<Long, io.jrnic.verbs.QpState> ended) throws Exception {
        try (Endpoint ep = new Endpoint(provider, size)) {
            byte[] start = new byte[size];
            MemoryRegion startMr = ep.pd.register(start, Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
            QueuePair qp = ep.createQp();
            Connection conn = ep.cm.connect(server, qp, options(base)).get(20, TimeUnit.SECONDS);
            SendWr send = SendWr.send().id(1).local(ep.sendMr.sge()).signaled();
            Deadline cap = Deadline.in(TimeUnit.SECONDS.toNanos(maxSeconds));
            int first = FIRST;
            long ping = 0;
            try {
                for (; (count == 0 || ping < count) && !cap.expired(); ping++) {
                    fill(start, size, (int) ping, first);
                    first = nextStart(first);
                    writeInfo(ep.sendBytes, startMr.advertise().address(), startMr.stag(), size);
                    qp.postSend(send);
                    if (!ep.await(CompletionOpcode.SEND) || !ep.await(CompletionOpcode.RECV)) {
                        throw new IllegalStateException("server went away at ping " + ping);
                    }
                    writeInfo(ep.sendBytes, ep.rdmaMr.advertise().address(), ep.rdmaMr.stag(), size);
                    qp.postSend(send);
                    if (!ep.await(CompletionOpcode.SEND) || !ep.await(CompletionOpcode.RECV)) {
                        throw new IllegalStateException("server went away at ping " + ping);
                    }
                    if (validate && !java.util.Arrays.equals(start, ep.rdmaBytes)) {
                        throw new IllegalStateException("data mismatch! (ping " + ping + ")");
                    }
                    if (verbose != null) {
                        verbose.println("ping data: " + cString(ep.rdmaBytes));
                    }
                }
            } finally {
                if (verbose != null) {
                    verbose.flush();
                }
                try {
                    conn.disconnect().get(5, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // closing the device tears the connection down anyway
                }
                if (ended != null) {
                    ended.accept(ping, qp.state());
                }
            }
            return ping;
        }
    }
}
