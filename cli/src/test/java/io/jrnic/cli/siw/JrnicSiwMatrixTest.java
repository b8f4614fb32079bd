package io.jrnic.cli.siw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.siw.CaseResult;
import io.jrnic.interop.siw.MatrixLanes;
import io.jrnic.interop.siw.SiwCase;
import io.jrnic.interop.siw.SiwImage;
import io.jrnic.interop.siw.SiwMatrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Every jrnic-vs-siw matrix case ({@link SiwMatrix#allCases} without the siw-only ones, so cases other
 * files register there run too), one dynamic test each. The cases run on {@code -Djrnic.siw.lanes} guests at
 * once (default 2, {@link MatrixLanes}), each lane reusing its guest while the configuration allows; each dynamic
 * test waits for its case's result. Captures and logs: target/siw-captures/JrnicSiwMatrixTest/.
 */
@Tag("siw")
class JrnicSiwMatrixTest {
    private static MatrixLanes lanes;

    @TestFactory
    Stream<DynamicTest> jrnicAgainstSiw() throws Exception {
        SiwSession.assumeAvailable();
        Path out = SiwSession.out(getClass().getSimpleName());
        // every case with a jrnic side: allCases() minus the siw-only ones (those run in interop's tests)
        List<String> siwOnly = SiwMatrix.guestOnlyCases().stream().map(SiwCase::name).toList();
        List<SiwCase> cases = SiwMatrix.allCases().stream().filter(c -> !siwOnly.contains(c.name())).toList();
        SiwSession.pool().close(); // an earlier test's guest: the lanes boot their own
        lanes = MatrixLanes.start(SiwImage.find().orElseThrow(), cases, Integer.getInteger("jrnic.siw.lanes", 2), out,
                System.out);
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            CaseResult r = lanes.await(c, Duration.ofMinutes(60));
            System.out.println("[siw] " + r);
            Path state = SiwMatrix.guestStateFile(out, c.name());
            if (!r.passed() && Files.exists(state)) {
                // into the log too: a CI run's artifacts are gone, its log is not
                Files.readAllLines(state).forEach(l -> System.out.println("[siw] " + c.name() + " guest: " + l));
            }
            assertTrue(r.passed(), r.toString());
        }));
    }

    @AfterAll
    static void closeLanes() throws InterruptedException {
        if (lanes != null) {
            lanes.close();
        }
    }
}
