package io.jrnic.cli;

import io.jrnic.interop.decode.CaptureDecoder;
import io.jrnic.interop.decode.Check;
import io.jrnic.interop.decode.CsvFormat;
import io.jrnic.interop.decode.DecodeOptions;
import io.jrnic.interop.decode.DecodeSink;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.interop.decode.Violation;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic decode FILE.pcap}: decodes the MPA/DDP/RDMAP traffic of a classic pcap and checks
 * it. Exit code 0: no violation (warnings and notes allowed); 1: at least one ERROR-level
 * violation; 2: the capture cannot be read (the error names the record and byte offset).
 */
@Command(name = "decode", mixinStandardHelpOptions = true,
        description = {"Decode and check the iWARP (MPA/DDP/RDMAP) traffic of a classic pcap capture.",
                "Exit code: 0 clean (warnings allowed), 1 protocol violations, 2 unreadable capture."})
public final class DecodeCommand implements Callable<Integer> {
    public static final int EXIT_VIOLATIONS = 1;
    public static final int EXIT_UNREADABLE = 2;

    enum Format { text, csv }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.pcap", description = "classic pcap file (not pcapng)")
    Path file;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or csv; in csv mode violations go to stderr")
    Format format;

    @Mixin
    TerminatesOption terminates = new TerminatesOption();

    @Option(names = "--max-private-data", defaultValue = "512", paramLabel = "N",
            description = "largest PD_Length accepted in an MPA Request/Reply (default 512, RFC 5044)")
    int maxPrivateData;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean csv = format == Format.csv;
        List<Violation> violations = new ArrayList<>();
        long[] fpdus = {0};
        if (csv) {
            out.println(CsvFormat.HEADER);
        }
        DecodeSink sink = new DecodeSink() {
            @Override
            public void onSetup(SetupRecord s) {
                if (!csv) {
                    out.println(setupLine(s));
                }
            }

            @Override
            public void onFpdu(FpduRecord f) {
                fpdus[0]++;
                out.println(csv ? CsvFormat.row(f) : fpduLine(f));
            }

            @Override
            public void onViolation(Violation v) {
                violations.add(v);
            }
        };
        CaptureDecoder.Summary summary;
        try {
            summary = CaptureDecoder.decode(file, new DecodeOptions(terminates.decoderMode(), maxPrivateData), sink);
        } catch (IOException e) {
            out.flush();
            report(violations, csv ? err : out);
            err.println("jrnic decode: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            err.flush();
            return EXIT_UNREADABLE;
        }
        Map<Check.Severity, Integer> count = new EnumMap<>(Check.Severity.class);
        for (Check.Severity s : Check.Severity.values()) {
            count.put(s, 0);
        }
        violations.forEach(v -> count.merge(v.check().severity(), 1, Integer::sum));
        if (!csv) {
            out.printf("summary: %d packets, %d TCP segments, %d MPA streams, %d FPDUs; %d violations, %d warnings, %d notes%n",
                    summary.packets(), summary.tcpSegments(), summary.mpaStreams(), fpdus[0],
                    count.get(Check.Severity.ERROR), count.get(Check.Severity.WARNING), count.get(Check.Severity.NOTE));
        }
        report(violations, csv ? err : out);
        out.flush();
        err.flush();
        return count.get(Check.Severity.ERROR) > 0 ? EXIT_VIOLATIONS : 0;
    }

    private static void report(List<Violation> violations, PrintWriter w) {
        violations.forEach(w::println);
        w.flush();
    }

    static String setupLine(SetupRecord s) {
        MpaSetupFrame f = s.frameInfo();
        StringBuilder b = new StringBuilder();
        b.append(String.format("stream %d %s frame %d  MPA %s rev %d M%d C%d R%d H%d PD_Length %d",
                s.stream(), s.dir().label(), s.frame(), f.kind() == MpaSetupFrame.Kind.REQUEST ? "Request" : "Reply",
                f.revision(), f.markers() ? 1 : 0, f.crc() ? 1 : 0, f.reject() ? 1 : 0, f.enhanced() ? 1 : 0,
                f.privateDataLength()));
        MpaV2Words w = f.v2Words();
        if (w != null) {
            b.append(String.format(" IRD %d ORD %d%s%s%s%s", w.ird(), w.ord(), w.p2p() ? " P2P" : "",
                    w.sendRtr() ? " SEND-RTR" : "", w.writeRtr() ? " WRITE-RTR" : "", w.readRtr() ? " READ-RTR" : ""));
        }
        return b.append("  ").append(s.connection()).toString();
    }

    static String fpduLine(FpduRecord f) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("stream %d %s frame %d", f.stream(), f.dir().label(), f.frame()));
        if (f.endFrame() != f.frame()) {
            b.append('-').append(f.endFrame());
        }
        b.append("  len ").append(f.ulpduLength());
        if (f.hasControl()) {
            b.append(String.format(" op 0x%x T%d L%d", f.opcode(), f.tagged() ? 1 : 0, f.last() ? 1 : 0));
        }
        if (f.hasTaggedFields()) {
            b.append(String.format(" STag 0x%08x TO 0x%016x", f.stag(), f.to()));
        }
        if (f.hasUntaggedFields()) {
            b.append(" QN ").append(f.qn()).append(" MSN ").append(f.msn()).append(" MO ").append(f.mo());
        }
        b.append(" crc ").append(f.crc().label());
        if (!f.info().isEmpty()) {
            b.append("  ").append(f.info());
        }
        return b.toString();
    }
}
