package io.jrnic.ddp;

/**
 * Data Sink bookkeeping for the untagged buffer model (RFC 5041 sections 5.3 and 7), free of I/O.
 * Per queue: the expected MSN (starts at 1, RFC 5041 section 4.4) and a bounded ring of posted
 * buffers; the n-th posted buffer receives the message with MSN = expected + n. Not thread-safe.
 *
 * <p>Checks of {@link #accept}, in order, each naming the Terminate error of RFC 5041 section 7.2:
 * <ol>
 * <li>DV = 1, else {@link DdpError#UNTAGGED_INVALID_VERSION};</li>
 * <li>QN below the queue count, else {@link DdpError#INVALID_QN};</li>
 * <li>MSN: with d = (MSN - expected) mod 2^32 (serial-number arithmetic, MSN wraps), the range
 *     first: d &gt;= the queue's capacity (an MSN behind the expected one, i.e. d &gt;= 2^31, or
 *     beyond the receive window: more messages ahead than the queue can ever hold posted) gives
 *     {@link DdpError#MSN_OUT_OF_RANGE}; inside the window but ahead of every posted buffer
 *     (posted &lt;= d &lt; capacity) gives {@link DdpError#NO_BUFFER}; a segment for a message
 *     already completed but not yet polled gives {@link DdpError#MSN_OUT_OF_RANGE};</li>
 * <li>MO equal to the bytes already received for that message (TCP delivers in order), else
 *     {@link DdpError#INVALID_MO};</li>
 * <li>MO + length within the buffer, else {@link DdpError#MESSAGE_TOO_LONG}.</li>
 * </ol>
 * A rejected segment changes no state. Messages with different MSNs may interleave here (DDP
 * allows it); completions are still handed out in MSN order by {@link #pollCompletion}.
 */
public final class UntaggedReceiver {
    private static final long U32 = 0xFFFF_FFFFL;

    private final int capacity;
    private final long[] expectedMsn;
    private final int[] head;
    private final int[] count;
    private final long[][] bufferId;
    private final long[][] bufferLength;
    private final long[][] received;
    private final boolean[][] complete;

    /**
     * @param queueCount number of queues (4 for RDMAP with RFC 7306: QN 0..3)
     * @param buffersPerQueue ring capacity: most buffers posted and not yet completed, per queue
     */
    public UntaggedReceiver(int queueCount, int buffersPerQueue) {
        if (queueCount <= 0 || buffersPerQueue <= 0) {
            throw new IllegalArgumentException("queueCount " + queueCount + ", buffersPerQueue " + buffersPerQueue);
        }
        this.capacity = buffersPerQueue;
        this.expectedMsn = new long[queueCount];
        this.head = new int[queueCount];
        this.count = new int[queueCount];
        this.bufferId = new long[queueCount][buffersPerQueue];
        this.bufferLength = new long[queueCount][buffersPerQueue];
        this.received = new long[queueCount][buffersPerQueue];
        this.complete = new boolean[queueCount][buffersPerQueue];
        java.util.Arrays.fill(expectedMsn, 1L);
    }

    public int queueCount() {
        return expectedMsn.length;
    }

    public int buffersPerQueue() {
        return capacity;
    }

    /** The MSN the oldest outstanding buffer of the queue will receive. */
    public long expectedMsn(int qn) {
        return expectedMsn[checkQn(qn)];
    }

    /** Buffers posted and not yet handed back (in progress or complete but unpolled included). */
    public int postedBuffers(int qn) {
        return count[checkQn(qn)];
    }

    /**
     * Posts a buffer of {@code length} bytes (0 .. 2^32) at the tail of the queue.
     *
     * @return false if the queue's ring is full (nothing changes)
     */
    public boolean postBuffer(int qn, long id, long length) {
        checkQn(qn);
        if (length < 0 || length > U32 + 1) {
            throw new IllegalArgumentException("buffer length " + length);
        }
        if (count[qn] == capacity) {
            return false;
        }
        int slot = (head[qn] + count[qn]) % capacity;
        bufferId[qn][slot] = id;
        bufferLength[qn][slot] = length;
        received[qn][slot] = 0;
        complete[qn][slot] = false;
        count[qn]++;
        return true;
    }

    /** {@link #accept(int, long, long, long, int, UntaggedPlacement)} reading the fields from a header. */
    public DdpError accept(UntaggedHeader header, int payloadLength, UntaggedPlacement out) {
        return accept(header.control(), header.queueNumber(), header.msn(), header.messageOffset(),
                payloadLength, out);
    }

    /**
     * Checks one untagged segment and, if it is acceptable, records it and fills {@code out}.
     *
     * @param qn, msn, mo the header fields as unsigned 32-bit values
     * @return null when accepted, else the DDP error for the Terminate (state unchanged)
     * @throws IllegalArgumentException if the control word has T set (not an untagged segment)
     */
    public DdpError accept(int control, long qn, long msn, long mo, int payloadLength, UntaggedPlacement out) {
        return place(control, qn, msn, mo, payloadLength, out, true);
    }

    /**
     * {@link #accept}'s checks and answer without recording anything: where the segment would go if it were
     * accepted now (for placing its payload before its CRC is checked; the segment is accepted later, once it is).
     */
    public DdpError check(int control, long qn, long msn, long mo, int payloadLength, UntaggedPlacement out) {
        return place(control, qn, msn, mo, payloadLength, out, false);
    }

    private DdpError place(int control, long qn, long msn, long mo, int payloadLength, UntaggedPlacement out,
            boolean record) {
        if (DdpControl.isTagged(control)) {
            throw new IllegalArgumentException("tagged segment given to the untagged receiver");
        }
        if (payloadLength < 0) {
            throw new IllegalArgumentException("payload length " + payloadLength);
        }
        if (DdpControl.ddpVersion(control) != DdpControl.DDP_VERSION) {
            return DdpError.UNTAGGED_INVALID_VERSION;
        }
        if (qn < 0 || qn >= expectedMsn.length) {
            return DdpError.INVALID_QN;
        }
        int q = (int) qn;
        long d = (msn - expectedMsn[q]) & U32;
        if (d >= capacity) {
            return DdpError.MSN_OUT_OF_RANGE; // behind, or beyond what the queue could ever have posted
        }
        if (d >= count[q]) {
            return DdpError.NO_BUFFER;
        }
        int slot = (int) ((head[q] + d) % capacity);
        if (complete[q][slot]) {
            return DdpError.MSN_OUT_OF_RANGE;
        }
        if (mo != received[q][slot]) {
            return DdpError.INVALID_MO;
        }
        if (mo + payloadLength > bufferLength[q][slot]) {
            return DdpError.MESSAGE_TOO_LONG;
        }
        boolean last = DdpControl.isLast(control);
        if (record) {
            received[q][slot] = mo + payloadLength;
            complete[q][slot] = last;
        }
        out.queueNumber = q;
        out.msn = msn & U32;
        out.bufferId = bufferId[q][slot];
        out.bufferOffset = mo;
        out.length = payloadLength;
        out.messageComplete = last;
        return null;
    }

    /**
     * Hands back the oldest buffer of the queue if its message is complete, advancing the expected MSN.
     * Completions come out in MSN order (RFC 5041 section 5.3: delivery in message order).
     *
     * @return false if the oldest buffer is absent or its message still incomplete
     */
    public boolean pollCompletion(int qn, UntaggedCompletion out) {
        checkQn(qn);
        if (count[qn] == 0 || !complete[qn][head[qn]]) {
            return false;
        }
        pop(qn, out);
        return true;
    }

    /** Hands back the oldest buffer whatever its state (flush after a Terminate); false if none. */
    public boolean pollFlush(int qn, UntaggedCompletion out) {
        checkQn(qn);
        if (count[qn] == 0) {
            return false;
        }
        pop(qn, out);
        return true;
    }

    private void pop(int qn, UntaggedCompletion out) {
        int slot = head[qn];
        out.queueNumber = qn;
        out.msn = expectedMsn[qn];
        out.bufferId = bufferId[qn][slot];
        out.messageLength = received[qn][slot];
        out.complete = complete[qn][slot];
        head[qn] = (slot + 1) % capacity;
        count[qn]--;
        expectedMsn[qn] = (expectedMsn[qn] + 1) & U32;
    }

    private int checkQn(int qn) {
        if (qn < 0 || qn >= expectedMsn.length) {
            throw new IllegalArgumentException("queue number " + qn + " outside 0.." + (expectedMsn.length - 1));
        }
        return qn;
    }
}
