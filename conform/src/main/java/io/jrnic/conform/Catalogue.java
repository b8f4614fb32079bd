package io.jrnic.conform;

import io.jrnic.conform.cases.Cases;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Every case, in run order, and selection by role and glob. */
public final class Catalogue {
    private Catalogue() {
    }

    public static List<ConformCase> all() {
        List<ConformCase> all = Cases.all();
        Set<String> ids = new HashSet<>();
        for (ConformCase c : all) {
            if (!ids.add(c.id())) {
                throw new IllegalStateException("duplicate case id " + c.id());
            }
        }
        return all;
    }

    /** The cases of one role whose id matches any of the globs ({@code *} any run of characters, dots
     *  included; {@code ?} one character); no globs: all of the role. */
    public static List<ConformCase> select(Role role, List<String> globs) {
        return select(role, globs, List.of());
    }

    /** As {@link #select(Role, List)}, leaving out the cases that match any of {@code skip}. */
    public static List<ConformCase> select(Role role, List<String> globs, List<String> skip) {
        List<Pattern> m = patterns(globs);
        List<Pattern> x = patterns(skip);
        List<ConformCase> out = new ArrayList<>();
        for (ConformCase c : all()) {
            if (c.role() == role && (m.isEmpty() || m.stream().anyMatch(p -> p.matcher(c.id()).matches()))
                    && x.stream().noneMatch(p -> p.matcher(c.id()).matches())) {
                out.add(c);
            }
        }
        return out;
    }

    private static List<Pattern> patterns(List<String> globs) {
        List<Pattern> m = new ArrayList<>();
        for (String g : globs) {
            StringBuilder re = new StringBuilder();
            for (char ch : g.toCharArray()) {
                re.append(ch == '*' ? ".*" : ch == '?' ? "." : Pattern.quote(String.valueOf(ch)));
            }
            m.add(Pattern.compile(re.toString()));
        }
        return m;
    }
}
