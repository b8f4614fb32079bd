package io.jrnic.cli.perf;

/** The RDMA operation a perf test exercises. */
public enum Op {
    WRITE, READ, SEND;

    /** Lower-case name used in the table, CSV and on the command line. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
