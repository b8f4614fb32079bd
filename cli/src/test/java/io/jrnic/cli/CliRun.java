package io.jrnic.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/** Runs the jrnic command line in-process and captures its output. */
record CliRun(int exit, String out, String err) {
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Jrnic.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }

    List<String> outLines() {
        return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
    }

    List<String> errLines() {
        return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
    }

}
