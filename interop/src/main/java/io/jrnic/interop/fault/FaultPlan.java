package io.jrnic.interop.fault;

/**
 * What a {@link FaultProxy} does to each direction of every connection it relays. Immutable; {@link #of(long)}
 * relays untouched, the {@code with...} methods add faults. Offsets count the bytes of one direction from the
 * start of its connection (the MPA set-up frames included). Everything random comes from the seed (and the
 * connection's number), so a plan replays the same faults.
 *
 * @param seed          seed of the per-connection random sources
 * @param maxChunk      writes are split at random boundaries into chunks of 1..maxChunk bytes (0: not split)
 * @param delayMillis   each chunk leaves this long after the previous one (0: at once)
 * @param stallAt       after this many bytes the proxy stops reading the direction (-1: never); the sender then
 *                      sees a zero window
 * @param stallMillis   how long the stall lasts (0: until the connection ends)
 * @param cutAt         the connection is cut when the direction reaches this byte (-1: never); bytes before it
 *                      are delivered
 * @param cutWithReset  the cut is a reset (RST, SO_LINGER 0) of both sides instead of a FIN towards the receiver
 * @param flipAt        the byte at this offset is inverted (XOR 0xFF) on its way (-1: none)
 * @param direction     which direction the stall, cut and flip apply to; splitting and delay apply to both
 */
public record FaultPlan(long seed, int maxChunk, long delayMillis, long stallAt, long stallMillis, long cutAt,
                        boolean cutWithReset, long flipAt, Direction direction) {

    /** The two directions of a relayed connection. */
    public enum Direction { CLIENT_TO_TARGET, TARGET_TO_CLIENT }

    public FaultPlan {
        if (maxChunk < 0 || delayMillis < 0 || stallMillis < 0) {
            throw new IllegalArgumentException("negative chunk, delay or stall time");
        }
    }

    /** No fault: a transparent relay. */
    public static FaultPlan of(long seed) {
        return new FaultPlan(seed, 0, 0, -1, 0, -1, false, -1, Direction.CLIENT_TO_TARGET);
    }

    public FaultPlan withSplit(int maxChunkBytes) {
        return new FaultPlan(seed, maxChunkBytes, delayMillis, stallAt, stallMillis, cutAt, cutWithReset, flipAt, direction);
    }

    public FaultPlan withDelay(long millis) {
        return new FaultPlan(seed, maxChunk, millis, stallAt, stallMillis, cutAt, cutWithReset, flipAt, direction);
    }

    public FaultPlan withStall(long atByte, long millis) {
        return new FaultPlan(seed, maxChunk, delayMillis, atByte, millis, cutAt, cutWithReset, flipAt, direction);
    }

    public FaultPlan withCut(long atByte, boolean reset) {
        return new FaultPlan(seed, maxChunk, delayMillis, stallAt, stallMillis, atByte, reset, flipAt, direction);
    }

    public FaultPlan withFlip(long atByte) {
        return new FaultPlan(seed, maxChunk, delayMillis, stallAt, stallMillis, cutAt, cutWithReset, atByte, direction);
    }

    public FaultPlan on(Direction d) {
        return new FaultPlan(seed, maxChunk, delayMillis, stallAt, stallMillis, cutAt, cutWithReset, flipAt, d);
    }
}
