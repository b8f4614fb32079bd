package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Initiator.c;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.wire.Ulpdus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Teardown (RFC 5040 section 5.4, RFC 5044 section 8): FIN, RST, streams cut inside an FPDU. */
final class TeardownCases {
    private TeardownCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        l.add(c("teardown.fin-idle", "RFC 5040 section 5.4", "a FIN after a ping makes the target close its side",
                Strictness.SHOULD, Expect.connectionEnds(), Initiator.afterPing(p -> p.session().fin())));
        l.add(c("teardown.fin-mid-fpdu", "RFC 5044 section 8 (LLP error)", "a FIN inside an FPDU ends the connection",
                Strictness.MUST, Expect.connectionEnds(), Initiator.afterSetup(p -> {
                    byte[] f = p.session().framing().fpdu(Ulpdus.send(p.sendMsn, p.sourceDescriptor()));
                    p.session().send(Arrays.copyOf(f, 12));
                    p.session().fin();
                })));
        l.add(c("teardown.rst-mid-fpdu", "RFC 5044 section 8 (LLP error)", "after a RST inside an FPDU the target serves "
                + "the next client", Strictness.MUST, Expect.proceeds(), Initiator.thenNextClient(Initiator.opened(0, (ctx, p) -> {
                    byte[] f = p.session().framing().fpdu(Ulpdus.send(p.sendMsn, p.sourceDescriptor()));
                    p.session().send(Arrays.copyOf(f, 12));
                    p.session().reset();
                    return null;
                }))));
        l.add(c("teardown.rst-after-ping", "RFC 5040 section 5.4", "after a RST mid-session the target serves the next "
                + "client", Strictness.MUST, Expect.proceeds(), Initiator.thenNextClient(Initiator.opened(1, (ctx, p) -> {
                    p.session().reset();
                    return null;
                }))));
        l.add(c("teardown.pings.10", "RFC 5040 section 5 (a long-lived stream)", "ten pings in a row on one connection",
                Strictness.MUST, Expect.proceeds(), Initiator.opened(0, (ctx, p) -> {
                    Observation o = null;
                    for (int i = 0; o == null && i < 9; i++) {
                        o = p.ping();
                    }
                    return o != null ? o : p.proceeds();
                })));
        return l;
    }

}
