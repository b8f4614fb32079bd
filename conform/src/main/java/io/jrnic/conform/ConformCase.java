package io.jrnic.conform;

/**
 * One conformance case: one RFC rule, the role jrnic plays, the outcomes the RFC accepts.
 *
 * @param id      dotted name, grouped by layer ({@code mpa.request.pd.513}); {@code --only} globs match it
 * @param rfc     the rule's source, e.g. {@code RFC 5044 section 7.1.1}
 * @param rule    what the case checks, in one sentence
 */
public record ConformCase(String id, Role role, String rfc, String rule, Strictness strictness, Expect expect,
                          Script script) {
}
