package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.Poller;
import io.jrnic.nvmf.wire.CmPrivateData;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An NVMe over Fabrics target with the NVMe/RDMA transport: one NVM subsystem with one namespace,
 * dynamic controllers (one per host association), an admin queue and I/O queues per controller,
 * each queue one RDMA connection (NVMe over Fabrics 1.1 sections 2 and 7 with the RDMA binding).
 * Built on the verbs API only. All protocol state lives on one {@link Poller} thread.
 */
public final class NvmfTarget implements AutoCloseable {
    /** Asynchronous Event Requests held per controller (AERL + 1). */
    static final int AER_LIMIT = 4;
    /** Keep Alive Support granularity (KAS), 100 ms units. */
    static final int KAS = 1;
    /** Controller IDs of the dynamic model: 1 .. 0xFFEF. */
    private static final int MAX_CNTLID = 0xFFEF;

    /**
     * @param subsystemNqn  the NVM subsystem's NQN
     * @param queueDepth    largest queue size a host may ask for (CAP.MQES + 1), also MAXCMD
     * @param inCapsuleData octets of in-capsule data a command capsule may carry (IOCCSZ = 4 + this / 16)
     * @param maxTransfer   largest data transfer of one command, a power of two >= 4096 (MDTS)
     * @param maxIoQueues   I/O queues a controller may have
     * @param maxQueues     RDMA connections (queues of all hosts) at once; more are rejected with
     *                      "no resources" (each may hold HSQSIZE + 1 data buffers of maxTransfer)
     * @param connectWithin a connection whose Fabrics Connect has not come by then is closed
     * @param connect       MPA options of the listener (CRC, IRD/ORD)
     */
    public record Config(String subsystemNqn, int queueDepth, int inCapsuleData, int maxTransfer, int maxIoQueues,
            int maxQueues, java.time.Duration connectWithin, ConnectOptions connect) {
        public Config {
            if (queueDepth < 2 || queueDepth > 1024 || inCapsuleData < 0 || inCapsuleData % 16 != 0
                    || maxTransfer < 4096 || Integer.bitCount(maxTransfer) != 1 || maxIoQueues < 1
                    || maxIoQueues > 0xFFFE || maxQueues < 1 || connectWithin.isNegative() || connectWithin.isZero()
                    || subsystemNqn.isEmpty() || subsystemNqn.length() > 223) {
                throw new IllegalArgumentException("bad target config " + subsystemNqn);
            }
        }

        /** Queue depth 128, 8 KiB in-capsule data, MDTS 128 KiB, 16 I/O queues per controller, 256 queues, Connect within 10 s. */
        public static Config defaults(String subsystemNqn) {
            return new Config(subsystemNqn, 128, 8192, 128 * 1024, 16, 256, java.time.Duration.ofSeconds(10),
                    ConnectOptions.defaults());
        }

        public Config withConnect(ConnectOptions o) {
            return new Config(subsystemNqn, queueDepth, inCapsuleData, maxTransfer, maxIoQueues, maxQueues,
                    connectWithin, o);
        }

        public Config withInCapsuleData(int n) {
            return new Config(subsystemNqn, queueDepth, n, maxTransfer, maxIoQueues, maxQueues, connectWithin,
                    connect);
        }

        public Config withLimits(int maxQueues, java.time.Duration connectWithin) {
            return new Config(subsystemNqn, queueDepth, inCapsuleData, maxTransfer, maxIoQueues, maxQueues,
                    connectWithin, connect);
        }
    }

    private final RdmaDevice dev;
    private final Config cfg;
    private final Namespace ns;
    private final Listener listener;
    final Poller poller;
    private final Map<Integer, Controller> controllers = new ConcurrentHashMap<>();
    private final List<TargetQueue> queues = new CopyOnWriteArrayList<>();
    private volatile Consumer<String> events = s -> { };
    private int nextCntlid = 1;

    private NvmfTarget(RdmaDevice dev, InetSocketAddress bind, Config cfg, Namespace ns) {
        if (ns.blocks() < 1) {
            throw new IllegalArgumentException("empty namespace");
        }
        this.dev = dev;
        this.cfg = cfg;
        this.ns = ns;
        poller = new Poller("nvmf-target", this::tick);
        listener = dev.connectionManager().listen(bind, cfg.connect());
        listener.onConnectRequest(this::connectRequest);
    }

    /** Listens on {@code bind} and serves {@code ns} as namespace 1 of {@code cfg.subsystemNqn()}. */
    public static NvmfTarget start(RdmaDevice dev, InetSocketAddress bind, Config cfg, Namespace ns) {
        return new NvmfTarget(dev, bind, cfg, ns);
    }

    public InetSocketAddress address() {
        return listener.localAddress();
    }

    public Config config() {
        return cfg;
    }

    Namespace namespace() {
        return ns;
    }

    RdmaDevice device() {
        return dev;
    }

    /** A line per notable event (association made or torn down, and why); for logs and tests. */
    public NvmfTarget onEvent(Consumer<String> handler) {
        events = handler;
        return this;
    }

    void event(String what) {
        events.accept(what);
    }

    /** Controllers (associations) alive now. */
    public int controllerCount() {
        return controllers.size();
    }

    /** Handlers on the target's thread that threw (a bug each; 0 expected). */
    public long handlerFailures() {
        return poller.handlerFailures();
    }

    /** Queues (RDMA connections) alive now. */
    public int queueCount() {
        return queues.size();
    }

    /** RDMA_CM_REQUEST: check the binding's private data, then accept on a fresh queue or reject. */
    private void connectRequest(ConnectRequest req) {
        CmPrivateData.Request pd;
        try {
            pd = CmPrivateData.Request.decode(req.privateData());
            int maxHsq = pd.qid() == 0 ? Math.min(cfg.queueDepth(), 32) - 1 : cfg.queueDepth() - 1;
            if (pd.qid() > cfg.maxIoQueues()) {
                throw new CmPrivateData.RejectException(CmPrivateData.INVALID_QID, "queue id " + pd.qid());
            }
            if (pd.hsqsize() < 1 || pd.hsqsize() > maxHsq) {
                throw new CmPrivateData.RejectException(CmPrivateData.INVALID_HSQSIZE,
                        "HSQSIZE " + pd.hsqsize() + " outside 1.." + maxHsq);
            }
            if (pd.hrqsize() < 1 || pd.hrqsize() > cfg.queueDepth() + 1) {
                throw new CmPrivateData.RejectException(CmPrivateData.INVALID_HRQSIZE, "HRQSIZE " + pd.hrqsize());
            }
            if (queues.size() >= cfg.maxQueues()) {
                throw new CmPrivateData.RejectException(CmPrivateData.NO_RESOURCES, queues.size() + " queues open");
            }
        } catch (CmPrivateData.RejectException e) {
            event("reject " + req.remoteAddress() + ": " + e.getMessage());
            req.reject(e.privateData());
            return;
        }
        TargetQueue q;
        try {
            q = new TargetQueue(this, pd.qid(), pd.hsqsize()); // HRQSIZE checked above; the receives follow HSQSIZE
        } catch (RuntimeException e) {
            event("reject " + req.remoteAddress() + ": no resources: " + e);
            req.reject(new CmPrivateData.Reject(CmPrivateData.RECFMT_1_0, CmPrivateData.NO_RESOURCES).encode());
            return;
        }
        queues.add(q);
        q.accept(req);
    }

    void removed(TargetQueue q) {
        queues.remove(q);
    }

    /** A new controller for an admin queue's Connect (dynamic model), or null when none is left. */
    Controller newController(TargetQueue admin, io.jrnic.nvmf.wire.Fabrics.ConnectData data, int kato) {
        for (int i = 0; i < MAX_CNTLID; i++) {
            int id = nextCntlid;
            nextCntlid = nextCntlid % MAX_CNTLID + 1;
            if (!controllers.containsKey(id)) {
                Controller c = new Controller(this, id, admin, data, kato);
                controllers.put(id, c);
                event("controller " + id + " for " + data.hostnqn() + " (" + admin.remote() + ")");
                return c;
            }
        }
        return null;
    }

    Controller controller(int cntlid) {
        return controllers.get(cntlid);
    }

    void removeController(Controller c, String why) {
        if (controllers.remove(c.cntlid(), c)) {
            event("controller " + c.cntlid() + " torn down: " + why);
        }
    }

    private void tick() {
        long now = System.nanoTime();
        for (Controller c : controllers.values()) {
            c.checkKeepAlive(now);
        }
        for (TargetQueue q : queues) {
            q.checkConnected(now, cfg.connectWithin().toNanos());
        }
    }

    @Override
    public void close() {
        listener.close();
        OnPoller.runOn(poller, () -> {
            for (Controller c : controllers.values()) {
                c.teardown("target closing");
            }
            for (TargetQueue q : queues) {
                q.teardown("target closing");
            }
        });
        poller.close();
        for (TargetQueue q : queues) {
            q.release();
        }
    }
}
