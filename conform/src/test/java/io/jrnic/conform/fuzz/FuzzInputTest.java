package io.jrnic.conform.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.conform.Role;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.util.List;
import org.junit.jupiter.api.Test;

class FuzzInputTest {
    @Test
    void theReproducerTextRoundTrips() {
        SetupFrame f = SetupFrame.v2(MpaSetupFrame.Kind.REPLY, true, MpaV2Words.of(1, 1), 3).privateDataLength(300);
        f.pdLength = 299;
        FuzzInput in = new FuzzInput(Role.RESPONDER, f, true, List.of(new FuzzInput.Message(new byte[] {1, 2, 3}, true, 2),
                new FuzzInput.Message(new byte[0], false, 0)));
        FuzzInput back = FuzzInput.parse(in.text());
        assertEquals(in.text(), back.text());
        assertEquals(299, back.setup().pdLength);
        assertEquals(300, back.setup().privateData.length);
    }
}
