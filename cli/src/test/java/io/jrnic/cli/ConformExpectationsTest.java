package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.conform.CaseResult;
import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Role;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `jrnic conform --expect FILE`: a verdict must match its line; 'V1|V2' allows either; absent cases must PASS. */
class ConformExpectationsTest {
    private static CaseResult result(String id, Verdict v) {
        ConformCase c = new ConformCase(id, Role.INITIATOR, "RFC", "rule", Strictness.MUST, Expect.proceeds(), ctx -> null);
        return new CaseResult(c, null, v, "because", 1, null);
    }

    @Test
    void aLineWithAlternativesAcceptsEitherAndNothingElse(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("expected.txt");
        Files.writeString(f, "# comment\nsome.case PASS|FAIL\nother.case DEVIATES\n");
        PrintWriter o = new PrintWriter(new StringWriter());
        assertTrue(ConformCommand.compare(List.of(result("some.case", Verdict.PASS), result("other.case", Verdict.DEVIATES)), f, o));
        assertTrue(ConformCommand.compare(List.of(result("some.case", Verdict.FAIL)), f, o));
        assertFalse(ConformCommand.compare(List.of(result("some.case", Verdict.DEVIATES)), f, o));
        assertFalse(ConformCommand.compare(List.of(result("other.case", Verdict.PASS)), f, o));
        assertFalse(ConformCommand.compare(List.of(result("absent.case", Verdict.FAIL)), f, o), "absent cases must PASS");
    }
}
