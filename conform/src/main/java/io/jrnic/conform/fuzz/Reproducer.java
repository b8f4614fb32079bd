package io.jrnic.conform.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jrnic fuzz --replay} sends: one execution or a sequence of executions, each on its own
 * connection, in order, then {@code follow} valid executions (the seed's set-up and one ping), which let
 * a crash that surfaces after its input (a kernel worker, a timer) show. The text form: an optional
 * {@code follow N} line, then each step as an {@code execution N} line (its number in the fuzz run) and
 * a {@link FuzzInput} body; a file without {@code execution} lines is one {@link FuzzInput}.
 */
public record Reproducer(List<Step> steps, int follow) {
    /** One execution of the run, by its number (1-based). */
    public record Step(long execution, FuzzInput input) {
    }

    public Reproducer {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a reproducer needs at least one execution");
        }
        steps = List.copyOf(steps);
    }

    public static Reproducer single(long execution, FuzzInput in, int follow) {
        return new Reproducer(List.of(new Step(execution, in)), follow);
    }

    public boolean isSequence() {
        return steps.size() > 1;
    }

    public List<FuzzInput> inputs() {
        return steps.stream().map(Step::input).toList();
    }

    /** "execution 7" or "the sequence 3..7". */
    public String label() {
        long a = steps.get(0).execution();
        long b = steps.get(steps.size() - 1).execution();
        return steps.size() == 1 ? "execution " + a : "the sequence " + a + ".." + b;
    }

    public String text() {
        StringBuilder b = new StringBuilder("# jrnic fuzz reproducer (" + label() + (follow > 0 ? ", then " + follow
                + " valid executions" : "") + "): jrnic fuzz --replay FILE TARGET (or --serve PORT)\n");
        b.append("follow ").append(follow).append('\n');
        for (Step s : steps) {
            b.append("execution ").append(s.execution()).append('\n').append(s.input().body());
        }
        return b.toString();
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, text());
    }

    public static Reproducer read(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    public static Reproducer parse(String text) {
        int follow = 0;
        List<Step> steps = new ArrayList<>();
        long execution = -1;
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.startsWith("follow ")) {
                follow = Integer.parseInt(l.substring("follow ".length()).strip());
            } else if (l.startsWith("execution ")) {
                if (execution >= 0) {
                    steps.add(new Step(execution, FuzzInput.parse(cur.toString())));
                }
                execution = Long.parseLong(l.substring("execution ".length()).strip());
                cur.setLength(0);
            } else {
                cur.append(line).append('\n');
            }
        }
        steps.add(new Step(Math.max(execution, 0), FuzzInput.parse(cur.toString())));
        return new Reproducer(steps, follow);
    }
}
