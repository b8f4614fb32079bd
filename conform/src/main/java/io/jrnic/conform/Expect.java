package io.jrnic.conform;

import io.jrnic.conform.Observation.Kind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The outcomes the RFC accepts for one case, and the judgement of an {@link Observation} against them.
 * Either the case is a valid exchange ({@link #proceeds()}) or a violation that must be caught: by a
 * Terminate with one of the listed (layer, type, code) triples, or by one of the listed other outcomes
 * (a close, a reject) where the RFC allows them. A triple part of {@code -1} matches any value.
 */
public final class Expect {
    /** The judgement of one observation. */
    public record Judgement(Verdict verdict, String reason) {
    }

    private final boolean valid;
    private final List<int[]> terminates = new ArrayList<>();
    private final Set<Kind> accepted = EnumSet.noneOf(Kind.class);

    private Expect(boolean valid) {
        this.valid = valid;
    }

    /** A valid exchange: the target must carry on. */
    public static Expect proceeds() {
        Expect e = new Expect(true);
        e.accepted.add(Kind.PROCEEDED);
        return e;
    }

    /** A violation the target must answer with this Terminate. */
    public static Expect terminate(int layer, int type, int code) {
        return new Expect(false).orTerminate(layer, type, code);
    }

    /** A violation the target must refuse at set-up: a Reply with R, a close or reset, or LLP/0/0x04. */
    public static Expect setupRefused() {
        return new Expect(false).orTerminate(2, 0, 0x04).or(Kind.REJECTED, Kind.CLOSED, Kind.RESET);
    }

    /** A violation the target must end the connection for, by any means (Terminate, close, reset). */
    public static Expect connectionEnds() {
        return new Expect(false).orTerminate(-1, -1, -1).or(Kind.CLOSED, Kind.RESET, Kind.REJECTED);
    }

    /** A Terminate from us: the target must close or reset, sending no Terminate back (RFC 5040 section 5.4). */
    public static Expect closes() {
        return new Expect(false).or(Kind.CLOSED, Kind.RESET);
    }

    /** Another acceptable Terminate. */
    public Expect orTerminate(int layer, int type, int code) {
        terminates.add(new int[] {layer, type, code});
        return this;
    }

    /** Other acceptable outcomes. */
    public Expect or(Kind... kinds) {
        accepted.addAll(List.of(kinds));
        return this;
    }

    public boolean valid() {
        return valid;
    }

    /** The acceptable outcomes, as the report prints them. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        for (int[] t : terminates) {
            if (t[0] < 0) {
                parts.add("any TERMINATE");
            } else {
                String triple = Observation.triple(t[0], Math.max(0, t[1]), Math.max(0, t[2]));
                String layer = triple.substring(0, triple.indexOf('/'));
                parts.add("TERMINATE " + layer + "/" + (t[1] < 0 ? "*" : String.valueOf(t[1])) + "/"
                        + (t[2] < 0 ? "*" : String.format("0x%02X", t[2])));
            }
        }
        for (Kind k : accepted) {
            parts.add(k.name());
        }
        return String.join(" | ", parts);
    }

    private boolean matches(Observation o) {
        return matches(o.layer(), o.type(), o.code());
    }

    private boolean matches(int layer, int type, int code) {
        for (int[] t : terminates) {
            if ((t[0] < 0 || t[0] == layer) && (t[1] < 0 || t[1] == type) && (t[2] < 0 || t[2] == code)) {
                return true;
            }
        }
        return false;
    }

    /** Judges what the target did. */
    public Judgement judge(Observation o, Strictness strictness) {
        if (o.kind() == Kind.UNREACHABLE) {
            return new Judgement(Verdict.ERROR, o.detail());
        }
        if (o.kind() == Kind.NOT_APPLICABLE) {
            return new Judgement(Verdict.SKIPPED, o.detail());
        }
        if (o.kind() == Kind.VIOLATED) {
            return new Judgement(Verdict.FAIL, "the target broke a rule: " + o.detail());
        }
        if (o.kind() == Kind.TERMINATE && matches(o)) {
            return "SIW".equals(o.layout())
                    ? new Judgement(Verdict.DEVIATES, "the expected Terminate, but its control word is in siw's "
                            + "little-endian bitfield layout, not RFC 5040 section 4.8's")
                    : new Judgement(Verdict.PASS, o.brief());
        }
        int[] other = o.otherLayout();
        if (o.kind() == Kind.TERMINATE && other != null && matches(other[0], other[1], other[2])) {
            String l = "RFC".equals(o.layout()) ? "siw's little-endian bitfield layout" : "the RFC layout";
            return new Judgement(Verdict.DEVIATES, "the expected Terminate " + Observation.triple(other[0], other[1], other[2])
                    + " when its control word is read in " + l + " (read as " + o.layout() + ": " + o.brief() + ")");
        }
        if (accepted.contains(o.kind())) {
            return new Judgement(Verdict.PASS, o.brief());
        }
        if (valid) {
            return new Judgement(strictness == Strictness.SHOULD ? Verdict.DEVIATES : Verdict.FAIL,
                    "valid exchange broken: " + o.brief() + detail(o));
        }
        if (o.kind() == Kind.SILENT || o.kind() == Kind.PROCEEDED) {
            String why = "violation accepted: " + o.brief() + detail(o);
            return new Judgement(strictness == Strictness.SHOULD ? Verdict.DEVIATES : Verdict.FAIL, why);
        }
        return new Judgement(Verdict.DEVIATES, "caught, but as " + o.brief() + "; expected " + describe());
    }

    private static String detail(Observation o) {
        return o.detail() == null || o.detail().isEmpty() ? "" : " (" + o.detail() + ")";
    }
}
