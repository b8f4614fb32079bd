package io.jrnic.interop.decode;

/** Receives the output of {@link MpaStreamAnalyzer}, in capture order per direction. */
public interface DecodeSink {
    void onSetup(SetupRecord setup);

    void onFpdu(FpduRecord fpdu);

    void onViolation(Violation violation);
}
