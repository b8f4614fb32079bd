package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rdma-core tool cases ({@link CmToolCase}) against a real siw guest, run through {@link SiwMatrix}
 * (one boot per guest configuration). Opt-in like every siw test (-Djrnic.siw=true or JRNIC_SIW=1) and
 * needs the jrnic CLI ({@link JrnicLauncher}); -Djrnic.siw.cases=a,b runs only the named cases.
 */
@Tag("siw")
class ToolCasesSiwTest {

    @Test
    void toolCasesPass() throws Exception {
        assumeTrue(SiwGuestExtension.requested(), "siw interop tests are opt-in: -Djrnic.siw=true or JRNIC_SIW=1");
        Optional<String> why = SiwImage.unavailableReason();
        assumeTrue(why.isEmpty(), why.orElse(""));
        List<String> jrnic = JrnicLauncher.find().orElse(null);
        assumeTrue(jrnic != null, "jrnic CLI not found: -Djrnic.cli=..., JRNIC_CLI=... or cli/target/jrnic.jar");
        List<SiwCase> cases = new ArrayList<>(CmToolCase.cases(jrnic));
        String only = System.getProperty("jrnic.siw.cases", "");
        if (!only.isBlank()) {
            List<String> names = List.of(only.split(","));
            cases.removeIf(c -> !names.contains(c.name()));
        }
        cases.sort(java.util.Comparator.comparing(c -> c.config().toString()));
        Path out = Paths.get("target", "siw-captures", "ToolCasesSiwTest");
        List<CaseResult> results = SiwMatrix.run(SiwImage.find().orElseThrow(), cases, out, System.out);
        List<CaseResult> failed = results.stream().filter(r -> !r.passed()).toList();
        assertTrue(failed.isEmpty(), failed.toString());
    }
}
