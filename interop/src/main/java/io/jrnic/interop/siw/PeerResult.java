package io.jrnic.interop.siw;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The machine-readable result a jrnic peer behind {@code jrnic interop} prints as its last line, and
 * the cases read back (instead of parsing English):
 * <pre>
 * RESULT terminate=1/1/0x00/SIW qp=ERROR completed=4/4 wc=1:RECV:SUCCESS,10:RDMA_WRITE:SUCCESS
 * </pre>
 * {@code terminate=none} when no Terminate was received; the layout is the one the Terminate was read
 * in ({@code TerminateInfo.layout()}). Plain ints and names: interop does not depend on verbs.
 */
public record PeerResult(Terminated terminate, String qpState, int completed, int posted, List<Wc> completions) {
    public static final String PREFIX = "RESULT ";

    /** A received Terminate's triple and the layout it was read in (RFC or SIW). */
    public record Terminated(int layer, int type, int code, String layout) {
        @Override
        public String toString() {
            return String.format("%d/%d/0x%02x/%s", layer, type, code, layout);
        }
    }

    /** One work completion: WR id, opcode and status names. */
    public record Wc(long id, String opcode, String status) {
        @Override
        public String toString() {
            return id + ":" + opcode + ":" + status;
        }
    }

    public PeerResult {
        completions = List.copyOf(completions);
    }

    /** The line to print. */
    public String format() {
        StringBuilder wc = new StringBuilder();
        for (Wc c : completions) {
            wc.append(wc.length() == 0 ? "" : ",").append(c);
        }
        return PREFIX + "terminate=" + (terminate == null ? "none" : terminate) + " qp=" + qpState + " completed="
                + completed + "/" + posted + " wc=" + wc;
    }

    /** True if some completion has this opcode and status. */
    public boolean has(String opcode, String status) {
        return completions.stream().anyMatch(c -> c.opcode().equals(opcode) && c.status().equals(status));
    }

    /** True when every posted work request completed. */
    public boolean allCompleted() {
        return completed == posted;
    }

    /**
     * The last RESULT line of a peer's output.
     *
     * @return empty when there is none; IllegalArgumentException when one is malformed
     */
    public static Optional<PeerResult> parse(String output) {
        String line = null;
        for (String l : output.split("\n")) {
            if (l.startsWith(PREFIX)) {
                line = l.strip();
            }
        }
        if (line == null) {
            return Optional.empty();
        }
        Terminated t = null;
        String qp = null;
        int completed = -1;
        int posted = -1;
        List<Wc> wcs = new ArrayList<>();
        for (String field : line.substring(PREFIX.length()).split(" ")) {
            int eq = field.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("RESULT field without '=': " + field);
            }
            String k = field.substring(0, eq);
            String v = field.substring(eq + 1);
            switch (k) {
                case "terminate" -> {
                    if (!v.equals("none")) {
                        String[] p = v.split("/");
                        t = new Terminated(Integer.parseInt(p[0]), Integer.parseInt(p[1]),
                                Integer.parseInt(p[2].substring(2), 16), p[3]);
                    }
                }
                case "qp" -> qp = v;
                case "completed" -> {
                    String[] p = v.split("/");
                    completed = Integer.parseInt(p[0]);
                    posted = Integer.parseInt(p[1]);
                }
                case "wc" -> {
                    for (String c : v.isEmpty() ? new String[0] : v.split(",")) {
                        String[] p = c.split(":");
                        wcs.add(new Wc(Long.parseLong(p[0]), p[1], p[2]));
                    }
                }
                default -> throw new IllegalArgumentException("unknown RESULT field " + k);
            }
        }
        if (qp == null || completed < 0) {
            throw new IllegalArgumentException("RESULT without qp or completed: " + line);
        }
        return Optional.of(new PeerResult(t, qp, completed, posted, wcs));
    }
}
