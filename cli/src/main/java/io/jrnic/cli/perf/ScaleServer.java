package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.CqInit;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;

/**
 * The passive side of {@code jrnic perf --scale}: a listener that accepts every connection on a QP of its own
 * (send and receive depth {@link Scale#QP_DEPTH}, one shared CQ) and destroys the QP when the connection ends.
 * It runs in a process of its own, so that the measuring process holds only its own end of each connection.
 */
public final class ScaleServer implements AutoCloseable {
    /** The first line the server prints on standard output, followed by its address. */
    public static final String READY = "scale server on ";
    private final RdmaDevice dev;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final Listener listener;

    public ScaleServer(String provider, InetSocketAddress bind) {
        dev = Rdma.open(provider);
        pd = dev.allocatePd();
        cq = dev.createCq(CqInit.of(1 << 16).context("scale-server"));
        listener = dev.connectionManager().listen(bind, Scale.options().maxPendingSetups(16_384));
        listener.onConnectRequest(this::accept);
    }

    public InetSocketAddress localAddress() {
        return listener.localAddress();
    }

    private void accept(ConnectRequest r) {
        QueuePair qp;
        try {
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(Scale.QP_DEPTH).maxRecvWr(Scale.QP_DEPTH));
        } catch (RuntimeException e) {
            r.reject(new byte[0]);
            return;
        }
        r.accept(qp, AcceptOptions.defaults()).whenComplete((c, failure) -> {
            if (failure != null) {
                qp.close();
            } else {
                c.disconnected().whenComplete((v, t) -> qp.close());
            }
        });
    }

    @Override
    public void close() {
        dev.close();
    }
}
