package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.rdmap.ErrorCodes;
import io.jrnic.verbs.TerminateInfo;
import org.junit.jupiter.api.Test;

/** verbs' TerminateInfo (no dependency on the protocol modules) names every code as the protocol modules' table does. */
class TerminateNamesTest {
    @Test
    void everyTripleIsNamedAsTheErrorTableNamesIt() {
        int known = 0;
        for (int layer = 0; layer < 16; layer++) {
            for (int type = 0; type < 16; type++) {
                for (int code = 0; code < 256; code++) {
                    String name = new TerminateInfo(layer, type, code, true).errorName();
                    if (ErrorCodes.isKnown(layer, type, code)) {
                        known++;
                        assertEquals(ErrorCodes.lookup(layer, type, code).description(), name, layer + "/" + type + "/" + code);
                    } else {
                        assertEquals("unknown error", name, layer + "/" + type + "/" + code);
                    }
                }
            }
        }
        assertEquals(33, known);
    }
}
