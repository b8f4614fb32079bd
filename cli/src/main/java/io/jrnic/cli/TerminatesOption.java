package io.jrnic.cli;

import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.TerminateInfo;
import io.jrnic.verbs.TerminateLayout;
import picocli.CommandLine.Option;

/**
 * {@code --terminates RFC|SIW|EITHER}: how the connection reads the Terminates it receives
 * ({@link ConnectOptions#terminateLayout}), or {@code jrnic decode} the Terminates of a capture; a picocli mixin
 * shared by the commands that connect and the decoder.
 */
public final class TerminatesOption {
    @Option(names = "--terminates", paramLabel = "LAYOUT", defaultValue = "RFC",
            description = "read Terminates (received, or in a capture) in the RFC 5040 layout, Linux siw's bitfield layout, or either "
                    + "(reporting which matched): ${COMPLETION-CANDIDATES}; default ${DEFAULT-VALUE}")
    TerminateLayout layout = TerminateLayout.RFC;

    ConnectOptions apply(ConnectOptions o) {
        return o.terminateLayout(layout);
    }

    /** The same choice for the capture decoder ({@code jrnic decode}). */
    TerminateDecoder.Mode decoderMode() {
        return switch (layout) {
            case RFC -> TerminateDecoder.Mode.STRICT;
            case SIW -> TerminateDecoder.Mode.SIW_QUIRK;
            case EITHER -> TerminateDecoder.Mode.EITHER;
        };
    }

    /** The line the peers print for a received Terminate (interop cases look for it). */
    static String received(TerminateInfo t) {
        return String.format("terminate received layer=%d type=%d code=0x%02x layout=%s", t.layer(), t.errorType(),
                t.errorCode(), t.layout());
    }
}
