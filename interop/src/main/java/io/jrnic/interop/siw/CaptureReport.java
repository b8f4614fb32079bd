package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CaptureDecoder;
import io.jrnic.interop.decode.Check;
import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.CsvFormat;
import io.jrnic.interop.decode.DecodeOptions;
import io.jrnic.interop.decode.DecodeSink;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.interop.decode.TsharkOracle;
import io.jrnic.interop.decode.Violation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What jrnic's capture decoder (and, when installed, tshark) says about a capture taken in the
 * guest: set-up frames, FPDUs by CRC outcome, protocol violations.
 *
 * @param tsharkRows  tshark's FPDU rows in {@link CsvFormat} layout, or null when tshark is absent
 */
public record CaptureReport(Path file, CaptureDecoder.Summary summary, List<SetupRecord> setups,
                            List<FpduRecord> fpdus, List<Violation> violations, List<String> tsharkRows) {

    /** Decodes {@code pcap} in siw quirk mode (siw's Terminate layout) and asks tshark too. */
    public static CaptureReport of(Path pcap) throws IOException {
        List<SetupRecord> setups = new ArrayList<>();
        List<FpduRecord> fpdus = new ArrayList<>();
        List<Violation> violations = new ArrayList<>();
        DecodeOptions base = DecodeOptions.defaults();
        CaptureDecoder.Summary s = CaptureDecoder.decode(pcap, new DecodeOptions(true, base.maxPrivateData()),
                new DecodeSink() {
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
                });
        TsharkOracle tshark = TsharkOracle.find();
        return new CaptureReport(pcap, s, List.copyOf(setups), List.copyOf(fpdus), List.copyOf(violations),
                tshark == null ? null : tshark.fpduRows(pcap));
    }

    /** FPDU count per CRC outcome. */
    public Map<CrcStatus, Integer> crcCounts() {
        Map<CrcStatus, Integer> m = new EnumMap<>(CrcStatus.class);
        for (FpduRecord f : fpdus) {
            m.merge(f.crc(), 1, Integer::sum);
        }
        return m;
    }

    /** Violations of severity ERROR or WARNING (NOTEs only say what could not be checked). */
    public List<Violation> problems() {
        return violations.stream().filter(v -> v.check().severity() != Check.Severity.NOTE).toList();
    }

    /** jrnic's FPDU rows in {@link CsvFormat} layout. */
    public List<String> decoderRows() {
        return fpdus.stream().map(CsvFormat::row).toList();
    }

    /** Empty if tshark is absent or agrees row for row, else the first difference. */
    public String tsharkDisagreement() {
        if (tsharkRows == null) {
            return "";
        }
        List<String> mine = decoderRows();
        for (int i = 0; i < Math.max(mine.size(), tsharkRows.size()); i++) {
            String a = i < mine.size() ? mine.get(i) : "<none>";
            String b = i < tsharkRows.size() ? tsharkRows.get(i) : "<none>";
            if (!a.equals(b)) {
                return "FPDU " + i + ": jrnic " + a + " / tshark " + b + " (" + mine.size() + " vs "
                        + tsharkRows.size() + " rows)";
            }
        }
        return "";
    }

    /** One line: packets, set-up frames, FPDUs by CRC, violations, tshark agreement. */
    public String summaryLine() {
        return file.getFileName() + ": " + summary.packets() + " packets, " + summary.mpaStreams() + " MPA streams, "
                + setups.size() + " set-up frames, " + fpdus.size() + " FPDUs " + crcCounts() + ", "
                + problems().size() + " violations, " + (violations.size() - problems().size()) + " notes, tshark "
                + (tsharkRows == null ? "absent" : tsharkDisagreement().isEmpty() ? "agrees" : "DISAGREES");
    }
}
