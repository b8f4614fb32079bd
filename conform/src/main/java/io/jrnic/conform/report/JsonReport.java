package io.jrnic.conform.report;

import io.jrnic.conform.CaseResult;
import io.jrnic.conform.Observation;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * The machine-readable report: {@code {"target":..., "role":..., "cases":[{id, verdict, rfc, rule,
 * strictness, expected, observed:{kind, layer, type, code, layout, detail}, reason, millis}]}}. Written by
 * hand: eleven flat fields do not justify a JSON library on the classpath.
 */
public final class JsonReport {
    private JsonReport() {
    }

    public static void write(String target, String role, List<CaseResult> results, Writer w) throws IOException {
        w.write("{\"target\":" + str(target) + ",\"role\":" + str(role) + ",\"cases\":[\n");
        for (int i = 0; i < results.size(); i++) {
            CaseResult r = results.get(i);
            Observation o = r.observation();
            w.write("  {\"id\":" + str(r.conformCase().id()) + ",\"verdict\":" + str(r.verdict().name())
                    + ",\"rfc\":" + str(r.conformCase().rfc()) + ",\"rule\":" + str(r.conformCase().rule())
                    + ",\"strictness\":" + str(r.conformCase().strictness().name())
                    + ",\"expected\":" + str(r.conformCase().expect().describe())
                    + ",\"observed\":" + (o == null ? "null" : "{\"kind\":" + str(o.kind().name()) + ",\"layer\":"
                    + o.layer() + ",\"type\":" + o.type() + ",\"code\":" + o.code() + ",\"layout\":" + str(o.layout())
                    + ",\"detail\":" + str(o.detail()) + (o.otherLayout() == null ? "" : ",\"otherLayout\":["
                    + o.otherLayout()[0] + "," + o.otherLayout()[1] + "," + o.otherLayout()[2] + "]") + "}")
                    + ",\"reason\":" + str(r.reason()) + ",\"millis\":" + r.millis() + "}"
                    + (i + 1 < results.size() ? "," : "") + "\n");
        }
        w.write("]}\n");
        w.flush();
    }

    static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
