package io.jrnic.conform.fuzz;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Role;
import io.jrnic.conform.cases.Templates;
import io.jrnic.conform.rping.RawPeer;
import io.jrnic.conform.rping.RpingClientPeer;
import io.jrnic.conform.rping.RpingServerPeer;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.Session;
import io.jrnic.conform.wire.SetupFrame;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one fuzz execution on one connection: the (possibly mutated) set-up frame, optionally one valid
 * ping (which teaches the target's STag and TO), then the messages, then a short watch. From a
 * {@link Mutator.Plan} it builds each message from its template with the learned values and records
 * what it sent as a {@link FuzzInput}; from a {@link FuzzInput} (a replay) it sends the same bytes.
 */
public final class Executor {
    /** What one execution sent and what the target did (null when the exchange ended before the watch). */
    public record Result(FuzzInput sent, Observation observed) {
    }

    private final Role role;
    private final Duration watch;

    public Executor(Role role, Duration watch) {
        this.role = role;
        this.watch = watch;
    }

    /** Executes a plan. */
    public Result run(CaseContext ctx, Mutator.Plan plan) throws IOException {
        return exec(ctx, plan.setup(), plan.ping(), plan.specs(), null);
    }

    /** Replays a reproducer. */
    public Result replay(CaseContext ctx, FuzzInput in) throws IOException {
        return exec(ctx, in.setupCopy(), in.ping(), null, in.messages());
    }

    private Result exec(CaseContext ctx, SetupFrame setup, boolean ping, List<Mutator.Spec> specs,
                        List<FuzzInput.Message> fixed) throws IOException {
        List<FuzzInput.Message> sent = new ArrayList<>();
        SetupFrame recorded = FuzzInput.copy(setup);
        RawPeer peer = null;
        try {
            Observation o;
            if (role == Role.INITIATOR) {
                RpingClientPeer p = RpingClientPeer.connect(ctx);
                peer = p;
                o = p.establish(setup);
                if (o == null && ping) {
                    o = p.ping();
                }
            } else {
                RpingServerPeer p = RpingServerPeer.accept(ctx);
                peer = p;
                o = p.awaitRequest();
                if (o == null) {
                    o = p.reply(setup);
                }
                if (o == null && ping) {
                    o = p.proceeds();
                    if (o != null && o.kind() == Observation.Kind.PROCEEDED) {
                        o = null;
                    }
                }
            }
            if (o != null) {
                return new Result(new FuzzInput(role, recorded, ping, sent), o);
            }
            int count = fixed != null ? fixed.size() : specs.size();
            for (int i = 0; i < count; i++) {
                FuzzInput.Message m = fixed != null ? fixed.get(i) : build(peer, specs.get(i));
                sent.add(m);
                send(peer.session(), m);
            }
            return new Result(new FuzzInput(role, recorded, ping, sent), Terminates.observe(peer.session(), watch));
        } catch (IOException e) {
            if (e instanceof CaseContext.UnreachableException) {
                throw e;
            }
            return new Result(new FuzzInput(role, recorded, ping, sent),
                    Observation.of(Observation.Kind.RESET, "I/O: " + e.getMessage()));
        } finally {
            if (peer != null) {
                peer.close();
            }
        }
    }

    private FuzzInput.Message build(RawPeer peer, Mutator.Spec spec) {
        ByteBuf u = Templates.message(peer, spec.template());
        byte[] a = new byte[u.readableBytes()];
        u.readBytes(a);
        u.release();
        for (Mutator.Edit e : spec.edits()) {
            if (e.offset() + e.width() > a.length) {
                continue;
            }
            long v = 0;
            for (int i = 0; i < e.width(); i++) {
                v = (v << 8) | (a[e.offset() + i] & 0xFF);
            }
            v = e.xor() ? v ^ e.value() : e.value();
            for (int i = e.width() - 1; i >= 0; i--) {
                a[e.offset() + i] = (byte) v;
                v >>>= 8;
            }
        }
        if (spec.resize() >= 0) {
            a = java.util.Arrays.copyOf(a, spec.resize());
        }
        return new FuzzInput.Message(a, spec.badCrc(), spec.split());
    }

    /** Frames one message (CRC recomputed, markers inserted when negotiated) and sends it. */
    static void send(Session s, FuzzInput.Message m) throws IOException {
        ByteBuf u = io.netty.buffer.Unpooled.wrappedBuffer(m.ulpdu());
        byte[] f = s.framing().markers() && !m.badCrc() ? s.framing().fpdu(u)
                : Session.Framing.fpdu(u, m.ulpdu().length, (byte) 0, !m.badCrc());
        if (m.split() > 0) {
            s.sendSplit(f, m.split());
        } else {
            s.send(f);
        }
    }
}
