package io.jrnic.soft;

import io.jrnic.mpa.CrcMode;
import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.soft.engine.StreamParams;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.ConnectionEvents;
import io.jrnic.soft.mpa.MpaConfig;
import io.jrnic.soft.net.HandOverEvents;
import io.jrnic.soft.net.PendingRequest;
import io.jrnic.soft.net.SoftConnection;
import io.jrnic.soft.net.SoftListener;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.CmEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectionParams;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.MpaSetupException;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.spi.CmSpi;
import io.jrnic.verbs.spi.ConnectRequestSpi;
import io.jrnic.verbs.spi.ConnectionSpi;
import io.jrnic.verbs.spi.ConnectionUpcalls;
import io.jrnic.verbs.spi.HandOverUpcalls;
import io.jrnic.verbs.spi.ListenerSpi;
import io.jrnic.verbs.spi.ListenerUpcalls;
import io.jrnic.verbs.spi.QpSpi;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

/** The connection manager back end (librdmacm model): listeners and connections over the device's transport. */
final class SoftCm implements CmSpi {
    private final SoftDevice device;
    private final List<SoftListener> listeners = new CopyOnWriteArrayList<>();
    /** Connections not yet ended (each removes itself when its stream closes): what {@link #close()} aborts. */
    private final java.util.Set<SoftConnection> connections = java.util.concurrent.ConcurrentHashMap.newKeySet();

    SoftCm(SoftDevice device) {
        this.device = device;
    }

    @Override
    public ListenerSpi listen(InetSocketAddress local, ConnectOptions options, ListenerUpcalls up) throws IOException {
        MpaConfig cfg = config(options, false);
        SoftListener l;
        try {
            l = device.transport().listen(local, cfg, req -> up.connectRequest(new Request(req, options)), options.capture());
            l.onSetupFailure(device.counters()::setupFailed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + local, e);
        } catch (RuntimeException e) {
            throw new IOException("cannot listen on " + local + ": " + e.getMessage(), e);
        }
        listeners.add(l);
        return new ListenerSpi() {
            @Override
            public InetSocketAddress localAddress() {
                return l.localAddress();
            }

            @Override
            public void close() {
                listeners.remove(l);
                l.close();
            }
        };
    }

    /** Keeps {@code c} until its stream closes (or its set-up fails without one). */
    private void track(SoftConnection c) {
        if (connections.add(c)) {
            c.whenEnded(() -> connections.remove(c));
        }
    }

    @Override
    public ConnectionSpi connect(InetSocketAddress remote, QpSpi qp, ConnectOptions options, ConnectionUpcalls up) {
        SoftConnection c = device.transport().connect(remote, config(options, true), ((SoftQp) qp).engine(),
                events(up), options.capture());
        track(c);
        return connectionSpi(c);
    }

    /** Stream hand-over (RDMA mode transition): a java.nio SocketChannel or a Netty Channel. */
    @Override
    public ConnectionSpi handOver(Object stream, ByteBuf alreadyRead, QpSpi qp, HandOverOptions options,
                                  HandOverUpcalls up) {
        ConnectOptions o = options.connectOptions();
        MpaConfig cfg = config(o, options.isInitiator());
        HandOverEvents ev = handOverEvents(up, o);
        SoftConnection c;
        if (stream instanceof java.nio.channels.SocketChannel s) {
            c = device.transport().handOver(s, alreadyRead, cfg, options.isInitiator(),
                    options.returnChannelOnFailure(), ((SoftQp) qp).engine(), ev);
        } else if (stream instanceof Channel ch) {
            c = device.transport().handOver(ch, alreadyRead, cfg, options.isInitiator(),
                    options.returnChannelOnFailure(), ((SoftQp) qp).engine(), ev);
        } else {
            alreadyRead.release();
            throw new IllegalArgumentException("rnic-soft takes over a java.nio SocketChannel or a Netty Channel, not "
                    + (stream == null ? "null" : stream.getClass().getName()));
        }
        track(c);
        return connectionSpi(c);
    }

    private HandOverEvents handOverEvents(HandOverUpcalls up, ConnectOptions o) {
        ConnectionEvents base = events(up);
        return new HandOverEvents() {
            @Override
            public void request(PendingRequest r) {
                up.connectRequest(new Request(r, o));
            }

            @Override
            public void established(StreamParams params, MpaParameters negotiated) {
                base.established(params, negotiated);
            }

            @Override
            public void rejected(byte[] peerPrivateData) {
                base.rejected(peerPrivateData);
            }

            @Override
            public void failed(CmFailure failure, String detail) {
                failed(failure, null, false, detail);
            }

            @Override
            public void failed(CmFailure failure, MpaFailure mpa, boolean channelReturned, String detail) {
                String reason = mpa != null ? mpa.reason().name() : failure == CmFailure.TIMEOUT ? "TIMEOUT" : "LOCAL";
                device.counters().setupFailed(reason);
                int llp = mpa != null && mpa.llpError() != null ? mpa.llpError().errorCode() : -1;
                up.failed(EngineEnums.cmEvent(failure), new MpaSetupException(reason, llp, channelReturned,
                        detail));
            }

            @Override
            public void disconnected() {
                base.disconnected();
            }
        };
    }

    private ConnectionSpi connectionSpi(SoftConnection c) {
        return new ConnectionSpi() {
            @Override
            public InetSocketAddress localAddress() {
                return c.channel() == null ? null : (InetSocketAddress) c.channel().localAddress();
            }

            @Override
            public void disconnect() {
                c.disconnect();
            }

            @Override
            public void abort() {
                c.abort();
            }
        };
    }

    private ConnectionEvents events(ConnectionUpcalls up) {
        return new ConnectionEvents() {
            @Override
            public void established(StreamParams params, MpaParameters negotiated) {
                up.established(params(negotiated));
            }

            @Override
            public void rejected(byte[] peerPrivateData) {
                up.rejected(peerPrivateData);
            }

            @Override
            public void failed(CmFailure failure, MpaFailure mpa, boolean channelReturned, String detail) {
                report(failure, mpa == null ? failure.name() : mpa.reason().name(), detail);
            }

            @Override
            public void failed(CmFailure failure, String detail) {
                report(failure, failure.name(), detail);
            }

            /** Counts the set-up failure by reason (the MPA negotiator's when there is one) and reports it. */
            private void report(CmFailure failure, String reason, String detail) {
                device.counters().setupFailed(reason);
                Throwable cause = failure == CmFailure.TIMEOUT ? new TimeoutException(detail)
                        : failure == CmFailure.UNREACHABLE ? new ConnectException(detail) : new IOException(detail);
                up.failed(EngineEnums.cmEvent(failure), cause);
            }

            @Override
            public void disconnected() {
                up.disconnected();
            }
        };
    }

    private static ConnectionParams params(MpaParameters p) {
        Set<RtrType> rtr = p.rtrType() == io.jrnic.mpa.RtrType.NONE ? Set.of()
                : Set.of(EngineEnums.rtr(p.rtrType()));
        return new ConnectionParams(p.revision(), p.crc(), p.markersRx(), p.localIrd(), p.localOrd(), p.p2p(), rtr,
                p.peerPrivateData());
    }

    /**
     * MPA options from the API's (RFC 6581: IRD/ORD relaxed like siw). A responder always allows
     * peer-to-peer mode when the initiator asks, answering with a WRITE RTR if offered, else READ
     * (a zero-length SEND RTR would consume one of the responder's receives: not chosen).
     */
    private MpaConfig config(ConnectOptions o, boolean initiator) {
        List<io.jrnic.mpa.RtrType> rtr = new ArrayList<>();
        for (RtrType t : new RtrType[] {RtrType.WRITE, RtrType.READ, RtrType.SEND}) {
            if (initiator ? o.rtrTypes().contains(t) : t != RtrType.SEND) {
                rtr.add(EngineEnums.rtr(t));
            }
        }
        int maxIrd = Math.max(device.attributes().maxIrd(), o.ird());
        MpaOptions mpa = MpaOptions.builder().revision(o.mpaRevision()).crc(o.crc() ? CrcMode.WANTED : CrcMode.OFF)
                .markersRx(o.markers()).ird(o.ird()).ord(o.ord()).maxIrd(Math.min(maxIrd, MpaV2Words.MAX_VALUE))
                .relaxedIrdOrd(true).p2p(initiator ? o.isPeerToPeer() : o.mpaRevision() == 2)
                .rtrTypes(rtr.toArray(new io.jrnic.mpa.RtrType[0])).privateData(o.privateData())
                .maxPrivateData(o.privateDataCap()).strictTiming(!o.lenientTiming())
                .timeout(initiator ? o.mpaReplyTimeout() : o.mpaRequestTimeout()).build();
        return new MpaConfig(mpa, o.mulpdu(), o.firstFpduDelay().toMillis(), o.connectTimeout().toMillis(),
                o.mpaRequestTimeout().toMillis(), EngineEnums.terminateMode(o.terminateLayout()),
                o.maxPendingSetups(), o.transmitStallTimeout().toMillis(), o.rdmapExtensions(),
                o.deadPeerTimeout().toMillis(), o.tcpRtoMin().toNanos() / 1000);
    }

    @Override
    public void close() {
        for (SoftListener l : listeners) {
            l.close();
        }
        for (SoftConnection c : connections) {
            c.abort();
        }
        listeners.clear();
        connections.clear();
    }

    /** A pending passive connection seen by the API. */
    private final class Request implements ConnectRequestSpi {
        private final PendingRequest req;
        private final ConnectOptions listenerOptions;

        Request(PendingRequest req, ConnectOptions listenerOptions) {
            this.req = req;
            this.listenerOptions = listenerOptions;
        }

        @Override
        public InetSocketAddress localAddress() {
            return req.localAddress();
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return req.remoteAddress();
        }

        @Override
        public ConnectionParams offered() {
            MpaSetupFrame f = req.request();
            MpaV2Words w = f.v2Words();
            EnumSet<RtrType> rtr = EnumSet.noneOf(RtrType.class);
            if (w != null && w.p2p()) {
                for (RtrType t : RtrType.values()) {
                    if (w.offers(EngineEnums.rtr(t))) {
                        rtr.add(t);
                    }
                }
            }
            return new ConnectionParams(f.revision(), f.crc(), f.markers(), w == null ? 0 : w.ird(),
                    w == null ? 0 : w.ord(), w != null && w.p2p(), rtr, f.privateData());
        }

        @Override
        public ConnectionSpi accept(QpSpi qp, AcceptOptions options, ConnectionUpcalls up) {
            int ird = options.ird() < 0 ? listenerOptions.ird() : options.ird();
            int ord = options.ord() < 0 ? listenerOptions.ord() : options.ord();
            SoftConnection c = req.accept(((SoftQp) qp).engine(), options.privateData(), ird, ord, events(up));
            track(c);
            return connectionSpi(c);
        }

        @Override
        public void reject(byte[] privateData) {
            req.reject(privateData);
        }
    }
}
