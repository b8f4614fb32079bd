package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionChannel;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakTracker;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child program of {@link VirtualThreadPinningTest} (run on JDK 21+): {@code pairs} RDMA connections over
 * 127.0.0.1 through one soft device, each a blocking SEND ping-pong of {@code iterations} 64-byte messages between two
 * virtual threads. The responder waits in {@link CompletionQueue#take}; the requester arms its CQ, polls again and
 * waits in {@link CompletionChannel#await}; every reply's bytes are checked. With more virtual threads than carriers
 * (the test sets the scheduler's parallelism to 2), a wait that pinned its carrier would show as a
 * {@code jdk.VirtualThreadPinned} event. Mode {@code pin} runs pair 0's requester inside a class initializer,
 * where JDK 25 still pins a blocked virtual thread: the test's proof that the recording catches pinning. Mode
 * {@code platform} runs the same on platform threads (a check of the program itself, on any JDK). Arguments:
 * {@code clean|pin|platform [pairs [iterations]]}.
 * Prints one line {@code vt-probe ok: ...} and exits 0, or names the failure and exits 1.
 */
public final class VtBlockingProbe {
    static final int SIZE = 64;
    static final Duration WAIT = Duration.ofSeconds(20);

    private final RdmaDevice device;
    private final ProtectionDomain pd;
    private final ConnectionManager cm;
    private final Listener listener;
    private final int iterations;
    private final ConcurrentHashMap<Integer, QueuePair> serverQps = new ConcurrentHashMap<>();
    private final AtomicInteger virtualWaiters = new AtomicInteger();

    private VtBlockingProbe(int iterations) {
        this.iterations = iterations;
        device = Rdma.open("soft");
        pd = device.allocatePd();
        cm = device.connectionManager();
        listener = cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
        listener.onConnectRequest(req -> {
            int pair = req.privateData().length > 0 ? req.privateData()[0] : -1;
            QueuePair qp = serverQps.get(pair);
            if (qp == null) {
                req.reject();
            } else {
                req.accept(qp, AcceptOptions.defaults());
            }
        });
    }

    public static void main(String[] args) throws Exception {
        boolean pin = args.length > 0 && args[0].equals("pin");
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        boolean platform = args.length > 0 && args[0].equals("platform");
        if (!platform && !VirtualThreads.available()) {
            System.out.println("vt-probe: " + VirtualThreads.NEEDS);
            System.exit(1);
        }
        VtBlockingProbe p = new VtBlockingProbe(iterations);
        try {
            String r = p.run(pairs, pin, platform);
            System.out.println(r);
            System.out.flush();
            System.exit(r.startsWith("vt-probe ok") ? 0 : 1);
        } finally {
            p.device.close();
        }
    }

    private String run(int pairs, boolean pin, boolean platform) throws Exception {
        String warm = warmUp(pairs);
        if (warm != null) {
            return "vt-probe FAILED: warm-up on platform threads: " + warm;
        }
        ExecutorService vts = platform ? Executors.newCachedThreadPool() : VirtualThreads.executor();
        List<Future<String>> all = new ArrayList<>();
        try {
            for (int i = 0; i < pairs; i++) {
                Pair pr = new Pair(i);
                serverQps.put(i, pr.serverQp);
                all.add(vts.submit(pr::respond));
                boolean inClassInit = pin && i == 0;
                all.add(vts.submit(() -> inClassInit ? ClassInitPin.run(pr) : pr.request()));
            }
            int ok = 0;
            StringBuilder bad = new StringBuilder();
            for (Future<String> f : all) {
                String r = f.get(2 * WAIT.toSeconds() + 30, TimeUnit.SECONDS);
                if (r == null) {
                    ok++;
                } else {
                    bad.append(r).append("; ");
                }
            }
            if (bad.length() > 0) {
                return "vt-probe FAILED: " + bad;
            }
            return "vt-probe ok: " + ok + " virtual threads (" + virtualWaiters.get() + " checked virtual), "
                    + pairs * (long) iterations + " round trips of " + SIZE + " B; " + directMemory();
        } finally {
            vts.shutdownNow();
        }
    }

    /** JDK direct buffers now (the soft provider's in-place reads keep one buffer per polling thread). */
    static String directMemory() {
        for (java.lang.management.BufferPoolMXBean b
                : java.lang.management.ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                return "JDK direct buffers: " + b.getCount() + ", " + (b.getTotalCapacity() >> 10) + " KiB";
            }
        }
        return "JDK direct buffers: unknown";
    }

    /**
     * One pair on platform threads first, so that the classes of a connection and a ping-pong are loaded before the
     * virtual threads start: JDK 25 still pins a virtual thread that contends for a class's loading lock (the
     * loading runs under VM frames; the recording names it "Contended monitor enter", "Freeze or preempt failed"),
     * which 16 first connects at once provoke; that is the JDK's one-time class loading, not a wait of the verbs API.
     */
    private String warmUp(int index) throws Exception {
        loadLeakDetectorClasses();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Pair pr = new Pair(index);
            serverQps.put(index, pr.serverQp);
            Future<String> a = pool.submit(pr::respond);
            Future<String> b = pool.submit(pr::request);
            String ra = a.get(2 * WAIT.toSeconds() + 30, TimeUnit.SECONDS);
            String rb = b.get(2 * WAIT.toSeconds() + 30, TimeUnit.SECONDS);
            return ra != null ? ra : rb;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Netty's leak detector samples one buffer in 128 (its default level) and loads its tracking classes at the first
     * sample, which may fall on a virtual thread after the warm-up: a class load there pinned a carrier once in CI
     * (2.9 ms, "Contended monitor enter" under {@code ResourceLeakDetector.track0}). One forced track on this platform
     * thread loads them first.
     */
    static void loadLeakDetectorClasses() {
        Object probe = new Object();
        ResourceLeakTracker<Object> leak = new ResourceLeakDetector<Object>(Object.class).trackForcibly(probe);
        leak.record();
        leak.close(probe);
        // and the wrappers a sampled buffer gets (AbstractByteBufAllocator.toLeakAwareBuffer: a second CI pin, 1.2 ms)
        for (String c : new String[] {"io.netty.buffer.SimpleLeakAwareByteBuf",
                "io.netty.buffer.SimpleLeakAwareCompositeByteBuf", "io.netty.buffer.AdvancedLeakAwareByteBuf"}) {
            try {
                Class.forName(c, true, VtBlockingProbe.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Runs a pair's requester in this class's static initializer (mode {@code pin}): a virtual thread blocked here is pinned. */
    static final class ClassInitPin {
        static Pair pending;

        static String run(Pair p) {
            pending = p;
            return Init.RESULT;
        }

        static final class Init {
            static final String RESULT = pending.request();
        }
    }

    /** One connection: a responder QP (CQ without channel, take) and a requester QP (CQ with a channel, await). */
    final class Pair {
        final int index;
        final CompletionQueue serverCq;
        final QueuePair serverQp;
        final CompletionChannel channel;
        final CompletionQueue clientCq;
        final QueuePair clientQp;
        final ByteBuffer serverBuf = ByteBuffer.allocateDirect(SIZE);
        final ByteBuffer clientOut = ByteBuffer.allocateDirect(SIZE);
        final ByteBuffer clientIn = ByteBuffer.allocateDirect(SIZE);
        final MemoryRegion serverMr;
        final ByteBuffer echoBuf = ByteBuffer.allocateDirect(SIZE);
        final MemoryRegion echoMr;
        final MemoryRegion outMr;
        final MemoryRegion inMr;

        Pair(int index) {
            this.index = index;
            serverCq = device.createCq(64);
            serverQp = pd.createQp(QpInit.rc(serverCq).maxSendWr(4).maxRecvWr(4));
            channel = device.createCompletionChannel();
            clientCq = device.createCq(64, channel);
            clientQp = pd.createQp(QpInit.rc(clientCq).maxSendWr(4).maxRecvWr(4));
            serverMr = pd.register(serverBuf, Access.LOCAL_WRITE);
            echoMr = pd.register(echoBuf, Access.LOCAL_WRITE);
            outMr = pd.register(clientOut, Access.LOCAL_WRITE);
            inMr = pd.register(clientIn, Access.LOCAL_WRITE);
            serverQp.postRecv(RecvWr.of(1, serverMr.sge(0, SIZE)));
        }

        /** The responder: take a SEND, repost, echo it, take the echo's completion. Null when all went right. */
        String respond() {
            countVirtual();
            Completion[] wc = Completion.array(4);
            try {
                int received = 0; // SENDs arrived: the next one may come in the same take as an echo's completion
                boolean echoInFlight = false;
                for (int i = 0; i < iterations; i++) {
                    while (received <= i || echoInFlight) {
                        int n = serverCq.take(wc, WAIT);
                        if (n == 0) {
                            return "pair " + index + " responder: no " + (received <= i ? "SEND " + i : "echo completion")
                                    + " within " + WAIT;
                        }
                        for (int k = 0; k < n; k++) {
                            if (!wc[k].isOk()) {
                                return "pair " + index + " responder: " + wc[k].status();
                            }
                            if (Cq.isRecv(wc[k])) {
                                received++;
                            } else {
                                echoInFlight = false;
                            }
                        }
                    }
                    // the echo's copy first, then the next receive before the echo goes (the requester answers at
                    // once; iWARP has no receiver-not-ready retry: RFC 5041 section 7.2, a SEND without a receive
                    // posted terminates the stream)
                    echoBuf.clear().put(serverBuf.duplicate().clear()).clear();
                    if (i + 1 < iterations) {
                        serverQp.postRecv(RecvWr.of(1, serverMr.sge(0, SIZE)));
                    }
                    serverQp.postSend(SendWr.send().id(2).local(echoMr.sge(0, SIZE)).signaled());
                    echoInFlight = true;
                }
                while (echoInFlight) {
                    int n = serverCq.take(wc, WAIT);
                    if (n == 0) {
                        return "pair " + index + " responder: no completion of the last echo";
                    }
                    for (int k = 0; k < n; k++) {
                        echoInFlight &= Cq.isRecv(wc[k]);
                    }
                }
                return null;
            } catch (InterruptedException e) {
                return "pair " + index + " responder interrupted";
            } catch (RuntimeException e) {
                return "pair " + index + " responder: " + e;
            }
        }

        /** The requester: connect, then SEND and await the echo through the channel; checks every reply. */
        String request() {
            countVirtual();
            Completion[] wc = Completion.array(4);
            try {
                cm.connect(listener.localAddress(), clientQp,
                        ConnectOptions.defaults().privateData(new byte[] {(byte) index})).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                for (int i = 0; i < iterations; i++) {
                    for (int k = 0; k < SIZE; k++) {
                        clientOut.put(k, (byte) (i * 31 + k + index));
                    }
                    clientQp.postRecv(RecvWr.of(3, inMr.sge(0, SIZE)));
                    clientQp.postSend(SendWr.send().id(4).local(outMr.sge(0, SIZE)).signaled());
                    boolean got = false;
                    boolean sent = false;
                    while (!got || !sent) {
                        int n = clientCq.poll(wc);
                        if (n == 0) {
                            clientCq.requestNotify(false);
                            n = clientCq.poll(wc); // re-check after arming: no lost wake-up
                            if (n == 0 && channel.await(WAIT.toMillis(), TimeUnit.MILLISECONDS) == null) {
                                return "pair " + index + " requester: no reply " + i + " within " + WAIT;
                            }
                        }
                        for (int k = 0; k < n; k++) {
                            if (!wc[k].isOk()) {
                                return "pair " + index + " requester: " + wc[k].status();
                            }
                            if (Cq.isRecv(wc[k])) {
                                got = true;
                            } else {
                                sent = true;
                            }
                        }
                    }
                    for (int k = 0; k < SIZE; k++) {
                        if (clientIn.get(k) != clientOut.get(k)) {
                            return "pair " + index + " requester: reply " + i + " differs at byte " + k;
                        }
                    }
                }
                return null;
            } catch (InterruptedException e) {
                return "pair " + index + " requester interrupted";
            } catch (Exception e) {
                return "pair " + index + " requester: " + e;
            }
        }

        private void countVirtual() {
            if (VirtualThreads.isVirtual(Thread.currentThread())) {
                virtualWaiters.incrementAndGet();
            }
        }
    }
}
