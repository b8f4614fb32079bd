package io.jrnic.conform.report;

import io.jrnic.conform.CaseResult;
import io.jrnic.conform.Verdict;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/**
 * JUnit XML (the Ant/Surefire schema CI systems read): one testcase per case, classname the layer
 * prefix; FAIL and CRASHED are failures, ERROR an error, SKIPPED skipped, DEVIATES passes with its reason
 * in system-out (a deviation is information, not a broken build).
 */
public final class JunitReport {
    private JunitReport() {
    }

    public static void write(String suite, List<CaseResult> results, Writer w) throws IOException {
        Map<Verdict, Integer> t = TextReport.totals(results);
        long ms = results.stream().mapToLong(CaseResult::millis).sum();
        w.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        w.write(String.format("<testsuite name=%s tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">%n",
                attr(suite), results.size(), t.get(Verdict.FAIL) + t.get(Verdict.CRASHED), t.get(Verdict.ERROR),
                t.get(Verdict.SKIPPED), ms / 1000.0));
        for (CaseResult r : results) {
            String id = r.conformCase().id();
            int dot = id.indexOf('.', id.indexOf('.') + 1);
            String cls = "conform." + (dot > 0 ? id.substring(0, dot) : id);
            w.write(String.format("  <testcase classname=%s name=%s time=\"%.3f\">", attr(cls), attr(id), r.millis() / 1000.0));
            String msg = r.verdict() + ": " + r.reason() + " [" + r.conformCase().rfc() + ": " + r.conformCase().rule() + "]";
            switch (r.verdict()) {
                case FAIL, CRASHED -> w.write("<failure message=" + attr(msg) + "/>");
                case ERROR -> w.write("<error message=" + attr(msg) + "/>");
                case SKIPPED -> w.write("<skipped message=" + attr(msg) + "/>");
                case DEVIATES -> w.write("<system-out>" + text(msg) + "</system-out>");
                default -> {
                }
            }
            w.write("</testcase>\n");
        }
        w.write("</testsuite>\n");
        w.flush();
    }

    static String attr(String s) {
        return "\"" + text(s).replace("\"", "&quot;") + "\"";
    }

    static String text(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : String.valueOf(s).toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                default -> b.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
