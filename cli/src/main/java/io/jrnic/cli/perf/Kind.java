package io.jrnic.cli.perf;

/** Bandwidth (also message rate, at small sizes) or latency. */
public enum Kind {
    BW, LAT;

    public String label() {
        return this == BW ? "bw" : "lat";
    }
}
