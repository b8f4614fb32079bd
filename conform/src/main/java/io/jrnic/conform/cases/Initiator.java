package io.jrnic.conform.cases;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Role;
import io.jrnic.conform.Script;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.rping.RpingClientPeer;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.SetupFrame;
import java.io.IOException;
import java.util.function.Function;

/**
 * The shapes of initiator-role cases (jrnic the raw rping client, the target {@code rping -s}). A case
 * injects at a quiescent point, where the target owes us nothing, so that any message it sends after the
 * injection means it carried on: right after set-up, or after one whole ping (which taught us the STag
 * and TO of the target's buffer from its Read Request).
 */
final class Initiator {
    /** What a case sends at its point of injection. */
    @FunctionalInterface
    interface Injection {
        void inject(RpingClientPeer peer) throws IOException;
    }

    private Initiator() {
    }

    static ConformCase c(String id, String rfc, String rule, Strictness s, Expect e, Script script) {
        return new ConformCase(id, Role.INITIATOR, rfc, rule, s, e, script);
    }

    /** Sets up with this Request; when the target accepts, one ping shows whether it carries on. */
    static Script setup(Function<CaseContext, SetupFrame> request) {
        return ctx -> {
            try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                Observation o = p.establish(request.apply(ctx));
                return o != null ? o : p.proceeds();
            }
        };
    }

    /** What a case does once the raw client stands at its point of injection; its observation, or null. */
    @FunctionalInterface
    interface Body {
        Observation run(CaseContext ctx, RpingClientPeer peer) throws Exception;
    }

    /**
     * The open / ping / close sequence the initiator cases share: connects with rping's Request, pings
     * {@code pings} times, runs {@code body}, closes the client. When the valid exchange before the body fails,
     * the case reports that it could not reach its point of injection ({@link #notReached}).
     */
    static Script opened(int pings, Body body) {
        return opened(RpingClientPeer::defaultRequest, pings, body);
    }

    /** As {@link #opened(int, Body)} with this Request. */
    static Script opened(Function<CaseContext, SetupFrame> request, int pings, Body body) {
        return ctx -> {
            RpingClientPeer p = null;
            try {
                p = RpingClientPeer.connect(ctx);
                Observation o = p.establish(request.apply(ctx));
                for (int i = 0; o == null && i < pings; i++) {
                    o = p.ping();
                }
                return o != null ? notReached(o) : body.run(ctx, p);
            } finally {
                close(p);
            }
        };
    }

    /** Sets up normally, injects, then watches. */
    static Script afterSetup(Injection i) {
        return opened(0, watch(i));
    }

    /** Sets up, pings once (learning the target's STag and TO), injects, then watches. */
    static Script afterPing(Injection i) {
        return opened(1, watch(i));
    }

    /** A valid message after a ping: the target must stay quiet about it and serve the next ping. */
    static Script validAfterPing(Injection i) {
        return opened(1, (ctx, p) -> {
            i.inject(p);
            return p.proceeds();
        });
    }

    /** Injects, then watches for the target's reaction (a Terminate, a close...). */
    static Body watch(Injection i) {
        return (ctx, p) -> {
            i.inject(p);
            return Terminates.observe(p.session(), ctx.timeout());
        };
    }

    /**
     * {@code first} breaks its connection on purpose (its body returns null); then the target must serve a new
     * client. What {@code first} observed instead (it could not reach its point) is the case's outcome.
     */
    static Script thenNextClient(Script first) {
        return ctx -> {
            Observation o = first.run(ctx);
            return o != null ? o : setup(RpingClientPeer::defaultRequest).run(ctx);
        };
    }

    /** The case could not reach its point of injection: report what stopped it, marked as such. */
    static Observation notReached(Observation o) {
        return Observation.of(Observation.Kind.UNREACHABLE, "the valid exchange before the injection failed: "
                + o.brief() + (o.detail() == null ? "" : " (" + o.detail() + ")"));
    }

    static void close(RpingClientPeer p) {
        if (p != null) {
            p.close();
        }
    }
}
