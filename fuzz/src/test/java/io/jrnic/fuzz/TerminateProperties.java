package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.DdpControl;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.verbs.QpState;
import io.netty.buffer.ByteBuf;

/**
 * What a live engine's own stream and end state must show after any input ({@code LiveEngineFuzzTest},
 * {@code PlacementFuzzTest}): at most one Terminate among the ULPDUs it sent, which decodes in the RFC layout
 * (RFC 5040 section 7, STRICT); once one was sent the QP is no longer in RTS; the QP ends in RTS, TERMINATE or ERROR.
 */
final class TerminateProperties {
    private TerminateProperties() {
    }

    static void check(Iterable<ByteBuf> ulpdus, QpState state, String context) {
        int terminates = 0;
        for (ByteBuf u : ulpdus) {
            int control = u.getUnsignedShort(u.readerIndex());
            if (!DdpControl.isTagged(control) && RdmapControl.opcodeCode(control) == RdmapOpcode.TERMINATE.code()) {
                TerminateDecoder.decode(u, u.readerIndex(), u.readableBytes(), TerminateDecoder.Mode.STRICT);
                terminates++;
            }
        }
        assertTrue(terminates <= 1, terminates + " Terminates on one stream");
        if (terminates == 1) {
            assertNotEquals(QpState.RTS, state, "a Terminate was sent but the QP is still in RTS");
        }
        assertTrue(state == QpState.RTS || state == QpState.TERMINATE || state == QpState.ERROR,
                "QP ended in " + state + context);
    }
}
