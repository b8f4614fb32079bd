package io.jrnic.conform.report;

import io.jrnic.conform.CaseResult;
import io.jrnic.conform.Verdict;
import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The readable report: one line per case (verdict, id, what the target did, the rule), then the totals. */
public final class TextReport {
    private TextReport() {
    }

    public static String line(CaseResult r) {
        String seen = r.observation() == null ? "-" : r.observation().brief();
        return String.format("%-8s %-44s %-30s %s", r.verdict(), r.conformCase().id(), seen,
                r.verdict() == Verdict.PASS ? r.conformCase().rfc() : r.reason() + " [" + r.conformCase().rfc() + "]");
    }

    public static Map<Verdict, Integer> totals(List<CaseResult> results) {
        Map<Verdict, Integer> m = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            m.put(v, 0);
        }
        for (CaseResult r : results) {
            m.merge(r.verdict(), 1, Integer::sum);
        }
        return m;
    }

    public static void summary(List<CaseResult> results, PrintWriter out) {
        StringBuilder b = new StringBuilder(results.size() + " cases:");
        totals(results).forEach((v, n) -> b.append(' ').append(v).append(' ').append(n));
        out.println(b);
        out.flush();
    }
}
