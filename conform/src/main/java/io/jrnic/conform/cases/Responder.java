package io.jrnic.conform.cases;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Role;
import io.jrnic.conform.Script;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.rping.RpingServerPeer;
import io.jrnic.conform.rping.Step;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.SetupFrame;
import java.io.IOException;

/**
 * The shapes of responder-role cases (jrnic the raw rping server, the target's {@code rping -c}
 * connecting once per case). Traffic cases inject after the client's first descriptor, when the client
 * waits for us and owes nothing.
 */
final class Responder {
    @FunctionalInterface
    interface ReplyEdit {
        void edit(SetupFrame reply);
    }

    @FunctionalInterface
    interface Injection {
        void inject(RpingServerPeer peer) throws IOException;
    }

    private Responder() {
    }

    static ConformCase c(String id, String rfc, String rule, Strictness s, Expect e, Script script) {
        return new ConformCase(id, Role.RESPONDER, rfc, rule, s, e, script);
    }

    /** Answers the client's Request with an edited Reply; when the client carries on, completes the ping. */
    static Script reply(ReplyEdit edit) {
        return ctx -> {
            try (RpingServerPeer p = RpingServerPeer.accept(ctx)) {
                Observation o = p.awaitRequest();
                if (o != null) {
                    return o;
                }
                SetupFrame f = p.defaultReply();
                edit.edit(f);
                o = p.reply(f);
                return o != null ? o : p.proceeds();
            }
        };
    }

    /** What a case does once the raw server holds the client's source descriptor; its observation, or null. */
    @FunctionalInterface
    interface Body {
        Observation run(CaseContext ctx, RpingServerPeer peer) throws Exception;
    }

    /**
     * The accept / descriptor / close sequence the responder cases share: accepts the client with the default
     * Reply, waits for its source descriptor (the client then waits for us and owes nothing), runs {@code body},
     * closes. When the valid exchange before the body fails, the case could not reach its point of injection.
     */
    static Script atDescriptor(Body body) {
        return ctx -> {
            RpingServerPeer[] p = new RpingServerPeer[1];
            try {
                Observation o = RpingServerPeer.open(ctx, p);
                if (o != null) {
                    return Initiator.notReached(o);
                }
                Step s = p[0].awaitSourceDescriptor();
                return s.ok() ? body.run(ctx, p[0]) : Initiator.notReached(s.instead());
            } finally {
                if (p[0] != null) {
                    p[0].close();
                }
            }
        };
    }

    /** Accepts normally, takes the client's source descriptor, injects, watches. */
    static Script afterDescriptor(Injection i) {
        return atDescriptor((ctx, p) -> {
            i.inject(p);
            return Terminates.observe(p.session(), ctx.timeout());
        });
    }

    /** A valid message after the descriptor: the client must stay quiet about it and finish the ping. */
    static Script validAfterDescriptor(Injection i) {
        return atDescriptor((ctx, p) -> {
            i.inject(p);
            Observation o = p.readSource();
            if (o == null) {
                o = p.finishPing();
            }
            return o != null ? o : Observation.of(Observation.Kind.PROCEEDED, "ping completed");
        });
    }
}
