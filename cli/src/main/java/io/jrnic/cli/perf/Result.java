package io.jrnic.cli.perf;

/**
 * One row: an RDMA figure and the raw-TCP baseline of the same size (either may be null when not
 * measured), and the outcome. {@code failure} is null when the test passed; {@code note} is free
 * text (e.g. "capped at 60 s").
 */
public record Result(PerfCase test, BwFigure rdmaBw, LatFigure rdmaLat, BwFigure tcpBw, LatFigure tcpLat,
                     String failure, String note) {

    public static Result bw(PerfCase t, BwFigure rdma, BwFigure tcp, String failure, String note) {
        return new Result(t, rdma, null, tcp, null, failure, note);
    }

    public static Result lat(PerfCase t, LatFigure rdma, LatFigure tcp, String failure, String note) {
        return new Result(t, null, rdma, null, tcp, failure, note);
    }

    public boolean ok() {
        return failure == null;
    }

    /** RDMA / TCP: bandwidth ratio for BW rows (equal to the message-rate ratio at equal sizes); p50 ratio for LAT rows; NaN if either side is missing. */
    public double ratio() {
        if (test.kind() == Kind.BW) {
            return rdmaBw == null || tcpBw == null || tcpBw.megabytesPerSecond() == 0 ? Double.NaN
                    : rdmaBw.megabytesPerSecond() / tcpBw.megabytesPerSecond();
        }
        return rdmaLat == null || tcpLat == null || tcpLat.p50Us() == 0 ? Double.NaN : rdmaLat.p50Us() / tcpLat.p50Us();
    }
}
