package io.jrnic.interop.pcap;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-direction TCP reassembly (RFC 9293 section 3.4 sequence numbers): orders payload by
 * sequence number from the SYN (or from the first segment seen), drops retransmitted and
 * duplicate bytes (overlaps trimmed, first copy wins), buffers out-of-order segments up to a
 * bound, and delivers one {@link StreamChunk} per segment so that the real segmentation stays
 * visible. Sequence numbers are unwrapped to 64-bit stream offsets.
 */
public final class TcpReassembler {
    /** Default bound on buffered out-of-order payload per direction. */
    public static final long DEFAULT_MAX_BUFFERED = 16L << 20;

    private final StreamListener listener;
    private final long maxBuffered;
    private final Map<TcpFlow, Direction> directions = new HashMap<>();

    public TcpReassembler(StreamListener listener) {
        this(listener, DEFAULT_MAX_BUFFERED);
    }

    public TcpReassembler(StreamListener listener, long maxBufferedBytesPerDirection) {
        this.listener = listener;
        this.maxBuffered = maxBufferedBytesPerDirection;
    }

    private static final class Direction {
        final long isn;       // sequence number of stream offset 0, minus nothing: offset = seq - isn
        long next;            // next expected stream offset
        long buffered;
        final TreeMap<Long, TcpSegment> pending = new TreeMap<>();

        Direction(long base) {
            this.isn = base;
        }

        /** Unwraps a 32-bit sequence number to the stream offset nearest to {@code next}. */
        long offsetOf(long seq) {
            int delta = (int) (seq - ((isn + next) & 0xFFFFFFFFL));
            return next + delta;
        }
    }

    public void accept(TcpSegment s) {
        Direction d = directions.get(s.flow());
        if (s.syn()) {
            long base = (s.seq() + 1) & 0xFFFFFFFFL;
            if (d == null || d.isn != base) {
                if (d != null) {
                    flush(s.flow(), d);
                }
                d = new Direction(base);
                directions.put(s.flow(), d);
                listener.onStreamStart(s.flow(), s.frame(), true);
            }
            if (s.payloadLength() == 0) {
                return;
            }
            s = new TcpSegment(s.frame(), s.timestampNanos(), s.flow(), base, s.flags(), s.payload(), s.missing());
        } else if (d == null) {
            if (s.payloadLength() == 0) {
                return;
            }
            d = new Direction(s.seq());
            directions.put(s.flow(), d);
            listener.onStreamStart(s.flow(), s.frame(), false);
        }
        if (s.payloadLength() == 0) {
            return;
        }
        long off = d.offsetOf(s.seq());
        if (off + s.payloadLength() <= d.next) {
            return;  // retransmission of delivered bytes
        }
        TcpSegment prev = d.pending.get(off);
        if (prev != null && prev.payloadLength() >= s.payloadLength()) {
            return;  // duplicate of a buffered segment
        }
        d.pending.put(off, s);
        d.buffered += s.payloadLength() - (prev == null ? 0 : prev.payloadLength());
        deliver(s.flow(), d);
        while (d.buffered > maxBuffered && !d.pending.isEmpty()) {
            skipGap(s.flow(), d);
            deliver(s.flow(), d);
        }
    }

    /** End of capture: reports holes before still-buffered data and delivers the rest. */
    public void finish() {
        directions.forEach(this::flush);
    }

    private void flush(TcpFlow flow, Direction d) {
        while (!d.pending.isEmpty()) {
            skipGap(flow, d);
            deliver(flow, d);
        }
    }

    private void skipGap(TcpFlow flow, Direction d) {
        Map.Entry<Long, TcpSegment> first = d.pending.firstEntry();
        if (first.getKey() > d.next) {
            listener.onGap(flow, d.next, first.getKey() - d.next, first.getValue().frame());
            d.next = first.getKey();
        }
    }

    private void deliver(TcpFlow flow, Direction d) {
        while (!d.pending.isEmpty()) {
            Map.Entry<Long, TcpSegment> e = d.pending.firstEntry();
            long off = e.getKey();
            if (off > d.next) {
                return;
            }
            TcpSegment s = e.getValue();
            d.pending.pollFirstEntry();
            d.buffered -= s.payloadLength();
            long end = off + s.payloadLength();
            if (end <= d.next) {
                continue;
            }
            int skip = (int) (d.next - off);
            byte[] p = s.payload();
            if (skip < p.length) {
                byte[] data = skip == 0 ? p : java.util.Arrays.copyOfRange(p, skip, p.length);
                listener.onChunk(flow, new StreamChunk(s.frame(), s.timestampNanos(), d.next, data));
                d.next += data.length;
            }
            if (s.missing() > 0 && d.next < end) {
                listener.onGap(flow, d.next, end - d.next, s.frame());
                d.next = end;
            }
        }
    }
}
