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

    /** Sets up normally, injects, then watches. */
    static Script afterSetup(Injection i) {
        return ctx -> {
            RpingClientPeer[] p = new RpingClientPeer[1];
            try {
                Observation o = RpingClientPeer.open(ctx, p);
                if (o != null) {
                    return notReached(o);
                }
                i.inject(p[0]);
                return Terminates.observe(p[0].session(), ctx.timeout());
            } finally {
                close(p[0]);
            }
        };
    }

    /** Sets up, pings once (learning the target's STag and TO), injects, then watches. */
    static Script afterPing(Injection i) {
        return ctx -> {
            RpingClientPeer[] p = new RpingClientPeer[1];
            try {
                Observation o = RpingClientPeer.open(ctx, p);
                if (o == null) {
                    o = p[0].ping();
                }
                if (o != null) {
                    return notReached(o);
                }
                i.inject(p[0]);
                return Terminates.observe(p[0].session(), ctx.timeout());
            } finally {
                close(p[0]);
            }
        };
    }

    /** A valid message after a ping: the target must stay quiet about it and serve the next ping. */
    static Script validAfterPing(Injection i) {
        return ctx -> {
            RpingClientPeer[] p = new RpingClientPeer[1];
            try {
                Observation o = RpingClientPeer.open(ctx, p);
                if (o == null) {
                    o = p[0].ping();
                }
                if (o != null) {
                    return notReached(o);
                }
                i.inject(p[0]);
                return p[0].proceeds();
            } finally {
                close(p[0]);
            }
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
