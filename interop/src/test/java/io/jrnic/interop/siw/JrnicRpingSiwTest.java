package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Matrix case (c): jrnic rping against siw rping, both directions, CRC off and on. Needs the jrnic CLI ({@link JrnicLauncher}). */
@SiwGuestTest(capture = "")
class JrnicRpingSiwTest {
    private static List<String> jrnic;

    @BeforeAll
    static void launcher() {
        jrnic = JrnicLauncher.find().orElse(null);
        assumeTrue(jrnic != null, "jrnic CLI not found: -Djrnic.cli=..., JRNIC_CLI=... or cli/target/jrnic.jar");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jrnic-client-siw-server", "siw-client-jrnic-server", "jrnic-client-siw-server-crc",
        "siw-client-jrnic-server-crc"})
    void rpingInteroperates(String name, SiwGuest guest, Path out) throws Exception {
        SiwCase c = SiwMatrix.jrnicCases(jrnic).stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        CaseResult r = SiwMatrix.runOne(guest, c, out);
        System.out.println("[siw] " + r);
        assertTrue(r.passed(), r.toString());
    }
}
