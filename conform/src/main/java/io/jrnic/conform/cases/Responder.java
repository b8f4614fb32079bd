package io.jrnic.conform.cases;

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

    /** Accepts normally, takes the client's source descriptor, injects, watches. */
    static Script afterDescriptor(Injection i) {
        return ctx -> {
            RpingServerPeer[] p = new RpingServerPeer[1];
            try {
                Observation o = RpingServerPeer.open(ctx, p);
                if (o != null) {
                    return Initiator.notReached(o);
                }
                Step s = p[0].awaitSourceDescriptor();
                if (!s.ok()) {
                    return Initiator.notReached(s.instead());
                }
                i.inject(p[0]);
                return Terminates.observe(p[0].session(), ctx.timeout());
            } finally {
                if (p[0] != null) {
                    p[0].close();
                }
            }
        };
    }

    /** A valid message after the descriptor: the client must stay quiet about it and finish the ping. */
    static Script validAfterDescriptor(Injection i) {
        return ctx -> {
            RpingServerPeer[] p = new RpingServerPeer[1];
            try {
                Observation o = RpingServerPeer.open(ctx, p);
                if (o != null) {
                    return Initiator.notReached(o);
                }
                Step s = p[0].awaitSourceDescriptor();
                if (!s.ok()) {
                    return Initiator.notReached(s.instead());
                }
                i.inject(p[0]);
                o = p[0].readSource();
                if (o == null) {
                    o = p[0].finishPing();
                }
                return o != null ? o : Observation.of(Observation.Kind.PROCEEDED, "ping completed");
            } finally {
                if (p[0] != null) {
                    p[0].close();
                }
            }
        };
    }
}
