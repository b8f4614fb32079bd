package io.jrnic.interop.decode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Wireshark's iWARP dissectors as an oracle: runs {@code tshark -T fields} on a capture and
 * renders one row per FPDU in {@link CsvFormat}'s layout, so that the two decodes can be compared
 * field for field. Several FPDUs in one frame come as {@code /}-aggregated occurrences; STag/TO
 * occurrences belong to the frame's tagged FPDUs in order, QN/MSN/MO to its untagged ones.
 * The MPA stream index is the order of each TCP stream's first set-up frame, the direction is
 * i2r when sent from the Request's source. The crc column is {@code good}/{@code bad} from the
 * text of {@code iwarp_mpa.crc_check} (read via PDML) and {@code off} when tshark did not check.
 *
 * <p>tshark runs with heuristic dissectors tried before port-based ones: MPA has no port, and an
 * ephemeral port that Wireshark knows (44321 is Performance Co-Pilot's) would otherwise hand the
 * whole stream to another dissector, so that tshark showed no FPDU of it.
 */
public final class TsharkOracle {
    private static final String[] FPDU_FIELDS = {"frame.number", "tcp.stream", "tcp.srcport", "ip.src", "ipv6.src",
        "iwarp_mpa.ulpdulength", "iwarp_rdma.opcode", "iwarp_ddp.tagged_flag", "iwarp_ddp.last_flag",
        "iwarp_ddp.stag", "iwarp_ddp.tagged_offset", "iwarp_ddp.qn", "iwarp_ddp.msn", "iwarp_ddp.mo"};
    private static final long TIMEOUT_SECONDS = 60;
    /** iwarp_mpa is heuristic only: let it see every stream before a port table claims it. */
    private static final List<String> PREFERENCES = List.of("-o", "tcp.try_heuristic_first:TRUE");

    private final String tshark;

    public TsharkOracle(String tshark) {
        this.tshark = tshark;
    }

    /** The tshark on PATH (or /usr/bin/tshark), or null when none is installed. */
    public static TsharkOracle find() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin").split(":")) {
            Path p = Paths.get(dir.isEmpty() ? "." : dir, "tshark");
            if (Files.isExecutable(p)) {
                return new TsharkOracle(p.toString());
            }
        }
        return null;
    }

    /** One row per FPDU tshark decoded, in {@link CsvFormat#HEADER} order (frame order). */
    public List<String> fpduRows(Path capture) throws IOException {
        Map<String, Integer> streamIndex = new LinkedHashMap<>();
        Map<String, String> initiator = new HashMap<>();
        for (String line : run(capture, "iwarp_mpa.req || iwarp_mpa.rep", "tcp.stream", "tcp.srcport", "ip.src",
                "ipv6.src", "iwarp_mpa.key.req")) {
            String[] f = line.split(",", -1);
            streamIndex.putIfAbsent(f[0], streamIndex.size());
            if (!f[4].isEmpty()) {
                initiator.put(f[0], f[2] + f[3] + "|" + f[1]);
            }
        }
        List<String> crcs = crcTexts(capture);
        int crcAt = 0;
        List<String> rows = new ArrayList<>();
        for (String line : run(capture, "iwarp_ddp", FPDU_FIELDS)) {
            String[] f = line.split(",", -1);
            String[] len = f[5].split("\\|", -1);
            String[] op = f[6].split("\\|", -1);
            String[] t = f[7].split("\\|", -1);
            String[] l = f[8].split("\\|", -1);
            Split stag = new Split(f[9]);
            Split to = new Split(f[10]);
            Split qn = new Split(f[11]);
            Split msn = new Split(f[12]);
            Split mo = new Split(f[13]);
            Integer stream = streamIndex.get(f[1]);
            String dir = (f[3] + f[4] + "|" + f[2]).equals(initiator.get(f[1])) ? "i2r" : "r2i";
            for (int i = 0; i < len.length; i++) {
                boolean tagged = "1".equals(t[i]);
                String crc = "off";
                if (crcAt < crcs.size() && crcs.get(crcAt).startsWith(f[0] + ":")) {
                    String text = crcs.get(crcAt++);
                    crc = text.contains("Good CRC32") ? "good" : "bad";
                }
                rows.add(String.join(",", String.valueOf(stream), dir, len[i], op[i], t[i], l[i],
                        tagged ? stag.next() : "", tagged ? to.next() : "",
                        tagged ? "" : qn.next(), tagged ? "" : msn.next(), tagged ? "" : mo.next(), crc));
            }
        }
        return rows;
    }

    /** "frame:showname" of every iwarp_mpa.crc_check in the capture, in order. */
    private List<String> crcTexts(Path capture) throws IOException {
        List<String> out = new ArrayList<>();
        String frame = "";
        for (String line : exec(command(capture, "iwarp_mpa.crc_check", "-T", "pdml"))) {
            int i = line.indexOf("name=\"frame.number\"");
            if (i >= 0) {
                int s = line.indexOf("show=\"", i) + 6;
                frame = line.substring(s, line.indexOf('"', s));
            }
            if (line.contains("name=\"iwarp_mpa.crc_check\"")) {
                int s = line.indexOf("showname=\"") + 10;
                out.add(frame + ":" + line.substring(s, line.indexOf('"', s)));
            }
        }
        return out;
    }

    private static final class Split {
        private final String[] parts;
        private int at;

        Split(String field) {
            parts = field.isEmpty() ? new String[0] : field.split("\\|", -1);
        }

        String next() {
            return at < parts.length ? parts[at++] : "?";
        }
    }

    private List<String> run(Path capture, String filter, String... fields) throws IOException {
        List<String> cmd = command(capture, filter, "-T", "fields",
                "-E", "separator=,", "-E", "aggregator=|", "-E", "occurrence=a");
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        return exec(cmd);
    }

    /** tshark reading {@code capture} with {@link #PREFERENCES}, display filter {@code filter}, then {@code more}. */
    private List<String> command(Path capture, String filter, String... more) {
        List<String> cmd = new ArrayList<>(List.of(tshark, "-r", capture.toString()));
        cmd.addAll(PREFERENCES);
        cmd.addAll(List.of("-Y", filter));
        cmd.addAll(List.of(more));
        return cmd;
    }

    private static List<String> exec(List<String> cmd) throws IOException {
        Path outFile = Files.createTempFile("tshark", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false)
                    .redirectOutput(outFile.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("tshark timed out: " + cmd);
            }
            if (p.exitValue() != 0) {
                throw new IOException("tshark exited " + p.exitValue() + ": " + cmd);
            }
            List<String> lines = new ArrayList<>();
            for (String l : Files.readAllLines(outFile, StandardCharsets.UTF_8)) {
                if (!l.isEmpty()) {
                    lines.add(l);
                }
            }
            return lines;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running tshark", e);
        } finally {
            Files.deleteIfExists(outFile);
        }
    }
}
