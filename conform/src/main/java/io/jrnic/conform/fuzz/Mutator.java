package io.jrnic.conform.fuzz;

import io.jrnic.conform.Role;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Structure-aware mutations (deterministic for a seed): the set-up frame field by field (flags, revision,
 * private data length, PD_Length, IRD/ORD words, key), and messages built from rping-shaped templates
 * with header fields set to boundary values, lengths changed, a bad CRC or a segmentation. Framing (the
 * CRC, markers) is always recomputed after the mutation, so that it reaches the layer it targets.
 */
public final class Mutator {
    /** Templates of messages after set-up (see {@link Executor}); their number. */
    public static final int TEMPLATES = 6;

    /** A header field edit: {@code width} octets at {@code offset} set to {@code value} (or XORed with it). */
    public record Edit(int offset, int width, long value, boolean xor) {
    }

    /** One message to build at execution time, once the target's STag and TO are known. */
    public record Spec(int template, List<Edit> edits, int resize, boolean badCrc, int split) {
    }

    /** One planned execution. */
    public record Plan(SetupFrame setup, boolean ping, List<Spec> specs, String what) {
    }

    private static final int[] PD_LENGTHS = {0, 1, 3, 4, 5, 252, 256, 257, 511, 512, 513, 1024};
    private static final int[] REVISIONS = {0, 1, 2, 3, 255};
    private static final int[] WORD_VALUES = {0, 1, 2, 127, 128, 0x3FFF, 0x4000, 0x8000, 0xC000, 0xFFFF};
    /** (offset, width) of the header fields of an untagged and of a tagged segment (RFC 5041 section 4),
     *  then of a Read Request header (RFC 5040 section 4.4). */
    private static final int[][] UNTAGGED = {{0, 2}, {0, 1}, {1, 1}, {2, 4}, {6, 4}, {10, 4}, {14, 4},
        {18, 4}, {22, 8}, {30, 4}, {34, 4}, {38, 8}};
    private static final int[][] TAGGED = {{0, 2}, {0, 1}, {1, 1}, {2, 4}, {6, 8}};
    private static final int[] RESIZES = {0, 1, 13, 14, 17, 18, 45, 46, 47, 64, 1000, 65535};

    private final SplittableRandom rnd;
    private final Role role;

    public Mutator(long seed, Role role) {
        this.rnd = new SplittableRandom(seed);
        this.role = role;
    }

    /** A plan: the seed (the valid set-up, one ping) with one to three mutations. */
    public Plan next(SetupFrame seed) {
        SetupFrame f = FuzzInput.copy(seed);
        boolean ping = rnd.nextInt(4) != 0;
        List<Spec> specs = new ArrayList<>();
        List<String> what = new ArrayList<>();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            int r = rnd.nextInt(10);
            if (r < 3) {
                what.add(mutateSetup(f));
            } else {
                specs.add(spec());
                what.add("message");
            }
        }
        return new Plan(f, ping, specs, String.join(",", what));
    }

    private String mutateSetup(SetupFrame f) {
        switch (rnd.nextInt(6)) {
            case 0 -> {
                f.flags ^= 1 << rnd.nextInt(8);
                return "flags";
            }
            case 1 -> {
                f.revision = REVISIONS[rnd.nextInt(REVISIONS.length)];
                return "revision";
            }
            case 2 -> {
                f.privateDataLength(PD_LENGTHS[rnd.nextInt(PD_LENGTHS.length)]);
                return "private-data";
            }
            case 3 -> {
                int[] d = {-4, -1, 1, 16};
                f.pdLength = Math.max(0, Math.min(0xFFFF, f.pdLength + d[rnd.nextInt(d.length)]));
                return "pd-length";
            }
            case 4 -> {
                if (f.privateData.length >= MpaV2Words.LENGTH) {
                    f.words(MpaV2Words.fromWords(WORD_VALUES[rnd.nextInt(WORD_VALUES.length)] | rnd.nextInt(4),
                            WORD_VALUES[rnd.nextInt(WORD_VALUES.length)] | rnd.nextInt(4)));
                }
                return "ird-ord";
            }
            default -> {
                f.key[rnd.nextInt(f.key.length)] ^= (byte) (1 << rnd.nextInt(8));
                return "key";
            }
        }
    }

    private Spec spec() {
        int template = rnd.nextInt(TEMPLATES);
        boolean tagged = template == 1 || template == 3;
        List<Edit> edits = new ArrayList<>();
        int k = rnd.nextInt(3);
        for (int i = 0; i < k; i++) {
            int[][] table = tagged ? TAGGED : UNTAGGED;
            int[] field = table[rnd.nextInt(table.length)];
            edits.add(edit(field[0], field[1]));
        }
        int resize = rnd.nextInt(6) == 0 ? RESIZES[rnd.nextInt(RESIZES.length)] : -1;
        boolean badCrc = rnd.nextInt(12) == 0;
        int split = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(7) : 0;
        return new Spec(template, edits, resize, badCrc, split);
    }

    private Edit edit(int offset, int width) {
        long max = width == 8 ? -1L : (1L << (8 * width)) - 1;
        long[] interesting = {0, 1, 2, max, max - 1, 1L << (8 * width - 1), (1L << (8 * width - 1)) - 1};
        return switch (rnd.nextInt(3)) {
            case 0 -> new Edit(offset, width, 1L << rnd.nextInt(8 * width), true);
            case 1 -> new Edit(offset, width, interesting[rnd.nextInt(interesting.length)], false);
            default -> new Edit(offset, width, rnd.nextLong() & max, false);
        };
    }

    public Role role() {
        return role;
    }
}
