package io.jrnic.conform.cases;

import io.jrnic.conform.ConformCase;
import java.util.ArrayList;
import java.util.List;

/** The catalogue, layer by layer, initiator role first, then the responder role. */
public final class Cases {
    private Cases() {
    }

    public static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        l.addAll(MpaRequestCases.all());
        l.addAll(FramingCases.all());
        l.addAll(DdpCases.all());
        l.addAll(RdmapCases.all());
        l.addAll(TeardownCases.all());
        l.addAll(ReplyCases.all());
        l.addAll(ToClientCases.all());
        return l;
    }
}
