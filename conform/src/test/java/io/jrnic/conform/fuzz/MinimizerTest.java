package io.jrnic.conform.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.conform.Role;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinimizerTest {
    @Test
    void aReproducerIsCutDownToTheFieldThatKills() throws Exception {
        SetupFrame seed = SetupFrame.v2(MpaSetupFrame.Kind.REPLY, false, MpaV2Words.of(1, 1), 0);
        SetupFrame f = FuzzInput.copy(seed).privateDataLength(257);
        f.flags ^= 0x02;
        f.revision = 3;
        FuzzInput found = new FuzzInput(Role.RESPONDER, f, true, List.of(new FuzzInput.Message(new byte[20], false, 0),
                new FuzzInput.Message(new byte[30], true, 1)));
        // a target that dies exactly when a Reply carries more than 256 octets of private data (Linux siw)
        Minimizer m = new Minimizer(c -> c.setup().privateData.length > 256, new PrintWriter(new StringWriter()));
        FuzzInput min = m.minimize(found, seed, 16);
        assertTrue(min.messages().isEmpty() && !min.ping(), min.text());
        assertEquals(seed.flags, min.setup().flags);
        assertEquals(seed.revision, min.setup().revision);
        assertEquals(257, min.setup().privateData.length);
        assertEquals("the Reply: 257 octets of private data (valid 4)", Minimizer.difference(min, seed));
    }
}
