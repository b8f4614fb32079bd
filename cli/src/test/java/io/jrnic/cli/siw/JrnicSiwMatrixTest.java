package io.jrnic.cli.siw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.siw.CaseResult;
import io.jrnic.interop.siw.SiwCase;
import io.jrnic.interop.siw.SiwGuest;
import io.jrnic.interop.siw.SiwMatrix;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Every jrnic-vs-siw matrix case ({@link SiwMatrix#allCases} without the siw-only ones, so cases other
 * files register there run too), one dynamic test each, grouped by
 * guest configuration (one boot per configuration). Captures and logs: target/siw-captures/JrnicSiwMatrixTest/.
 */
@Tag("siw")
class JrnicSiwMatrixTest {
    @TestFactory
    Stream<DynamicTest> jrnicAgainstSiw() throws Exception {
        SiwSession.assumeAvailable();
        Path out = SiwSession.out(getClass().getSimpleName());
        // every case with a jrnic side: allCases() minus the siw-only ones (those run in interop's tests)
        List<String> siwOnly = SiwMatrix.guestOnlyCases().stream().map(SiwCase::name).toList();
        List<SiwCase> cases = SiwMatrix.allCases().stream().filter(c -> !siwOnly.contains(c.name())).toList();
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            SiwGuest guest = SiwSession.pool().guestFor(c);
            CaseResult r;
            try {
                r = SiwMatrix.runOne(guest, c, out);
            } catch (RuntimeException | java.io.IOException e) {
                SiwMatrix.saveConsole(guest, out.resolve(c.name() + "-console.txt"));
                throw e;
            }
            System.out.println("[siw] " + r);
            if (!r.passed() && guest.alive()) {
                SiwMatrix.saveConsole(guest, out.resolve(c.name() + "-console.txt"));
            }
            Path state = SiwMatrix.guestStateFile(out, c.name());
            if (!r.passed() && java.nio.file.Files.exists(state)) {
                // into the log too: a CI run's artifacts are gone, its log is not
                java.nio.file.Files.readAllLines(state).forEach(l -> System.out.println("[siw] " + c.name() + " guest: " + l));
            }
            assertTrue(r.passed(), r.toString());
        }));
    }
}
