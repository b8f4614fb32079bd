package io.jrnic.interop.decode;

import java.util.ArrayList;
import java.util.List;

/** Collects everything a decode produces. */
final class RecordingSink implements DecodeSink {
    final List<SetupRecord> setups = new ArrayList<>();
    final List<FpduRecord> fpdus = new ArrayList<>();
    final List<Violation> violations = new ArrayList<>();

    @Override
    public void onSetup(SetupRecord setup) {
        setups.add(setup);
    }

    @Override
    public void onFpdu(FpduRecord fpdu) {
        fpdus.add(fpdu);
    }

    @Override
    public void onViolation(Violation violation) {
        violations.add(violation);
    }

    List<String> csv() {
        return fpdus.stream().map(CsvFormat::row).toList();
    }

    List<Check> checks() {
        return violations.stream().map(Violation::check).toList();
    }

    static RecordingSink decode(java.nio.file.Path file, DecodeOptions options) throws java.io.IOException {
        RecordingSink s = new RecordingSink();
        CaptureDecoder.decode(file, options, s);
        return s;
    }
}
