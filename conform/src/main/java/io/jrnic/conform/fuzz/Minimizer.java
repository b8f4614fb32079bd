package io.jrnic.conform.fuzz;

import io.jrnic.conform.wire.SetupFrame;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a reproducer down while it still kills the target (greedy, one step at a time, the target
 * restarted before each try): drop every message and the ping, then single messages, then put the
 * set-up frame's fields back to the seed's one by one. What stays is what matters, often one field of
 * one frame; {@link #difference} names it.
 */
public final class Minimizer {
    /** Restarts the target, replays, tells whether it died. */
    @FunctionalInterface
    public interface Trial {
        boolean kills(FuzzInput candidate) throws Exception;
    }

    private final Trial trial;
    private final PrintWriter log;
    private int tries;

    public Minimizer(Trial trial, PrintWriter log) {
        this.trial = trial;
        this.log = log;
    }

    public int tries() {
        return tries;
    }

    /** The smallest reproducer found within {@code maxTries} trials. */
    public FuzzInput minimize(FuzzInput in, SetupFrame seed, int maxTries) throws Exception {
        FuzzInput cur = in;
        boolean progress = true;
        while (progress && tries < maxTries) {
            progress = false;
            for (FuzzInput c : candidates(cur, seed)) {
                if (tries >= maxTries) {
                    break;
                }
                tries++;
                boolean k = trial.kills(c);
                log.println("  minimise try " + tries + ": " + describe(c, seed) + (k ? "  -> still kills" : "  -> survives"));
                log.flush();
                if (k) {
                    cur = c;
                    progress = true;
                    break;
                }
            }
        }
        return cur;
    }

    /** The reductions of {@code cur} a minimiser tries, in order. */
    public static List<FuzzInput> candidates(FuzzInput cur, SetupFrame seed) {
        List<FuzzInput> l = new ArrayList<>();
        if (!cur.messages().isEmpty() || cur.ping()) {
            l.add(cur.withMessages(List.of(), false));
        }
        if (!cur.messages().isEmpty()) {
            l.add(cur.withMessages(List.of(), true));
            for (int i = 0; i < cur.messages().size() && cur.messages().size() > 1; i++) {
                List<FuzzInput.Message> m = new ArrayList<>(cur.messages());
                m.remove(i);
                l.add(cur.withMessages(m, cur.ping()));
            }
        }
        SetupFrame f = cur.setup();
        if (!Arrays.equals(f.key, seed.key)) {
            SetupFrame c = FuzzInput.copy(f);
            c.key = seed.key.clone();
            l.add(cur.withSetup(c));
        }
        if (f.flags != seed.flags) {
            SetupFrame c = FuzzInput.copy(f);
            c.flags = seed.flags;
            l.add(cur.withSetup(c));
        }
        if (f.revision != seed.revision) {
            SetupFrame c = FuzzInput.copy(f);
            c.revision = seed.revision;
            l.add(cur.withSetup(c));
        }
        if (!Arrays.equals(f.privateData, seed.privateData) || f.pdLength != seed.pdLength) {
            SetupFrame c = FuzzInput.copy(f);
            c.privateData = seed.privateData.clone();
            c.pdLength = seed.pdLength;
            l.add(cur.withSetup(c));
            if (f.pdLength != f.privateData.length) {
                SetupFrame d = FuzzInput.copy(f);
                d.pdLength = d.privateData.length;
                l.add(cur.withSetup(d));
            }
        }
        return l;
    }

    /** How a reproducer differs from the valid exchange: the fields of its set-up frame and its messages. */
    public static String difference(FuzzInput in, SetupFrame seed) {
        List<String> d = new ArrayList<>();
        SetupFrame f = in.setup();
        if (!Arrays.equals(f.key, seed.key)) {
            d.add("key " + new String(f.key, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        if (f.flags != seed.flags) {
            d.add(String.format("flags 0x%02X (valid 0x%02X)", f.flags, seed.flags));
        }
        if (f.revision != seed.revision) {
            d.add("revision " + f.revision);
        }
        if (f.privateData.length != seed.privateData.length) {
            d.add(f.privateData.length + " octets of private data (valid " + seed.privateData.length + ")");
        } else if (!Arrays.equals(f.privateData, seed.privateData)) {
            d.add("private data " + java.util.HexFormat.of().formatHex(f.privateData, 0, Math.min(8, f.privateData.length)));
        }
        if (f.pdLength != f.privateData.length) {
            d.add("PD_Length " + f.pdLength + " for " + f.privateData.length + " octets sent");
        }
        String frame = in.role() == io.jrnic.conform.Role.INITIATOR ? "the Request" : "the Reply";
        String s = d.isEmpty() ? frame + " as valid" : frame + ": " + String.join(", ", d);
        return s + (in.ping() ? ", one ping" : "") + (in.messages().isEmpty() ? "" : ", " + in.messages().size() + " messages");
    }

    private static String describe(FuzzInput c, SetupFrame seed) {
        return difference(c, seed);
    }
}
