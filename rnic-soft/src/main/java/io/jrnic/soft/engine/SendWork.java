package io.jrnic.soft.engine;

/**
 * The requester's work (as siw's sq and orq): the send queue ring ({@link SendQueue}: posted, not retired, in posting
 * order, with the next-to-start cursor) and the ORQ ({@link OrdQueue}: Read and Atomic Requests whose responses are
 * awaited, in order, RFC 5040 section 5.3). It decides whether the next WR may start (a fenced WR waits for every
 * response, a Read or Atomic for room within ORD) and hands finished WRs back in posting order (RDMAC verbs:
 * completions in posting order). Held by the QP's owner ({@code QpEngine.sends}) and used only under its token; the
 * two rings are reached only through this class ({@code EngineOwnershipRuleTest}).
 */
final class SendWork {
    private final SendQueue sq;
    private final OrdQueue orq;
    private final QpCounters counters;

    SendWork(int sqDepth, QpCounters counters) {
        this.sq = new SendQueue(sqDepth);
        this.orq = new OrdQueue(sqDepth);
        this.counters = counters;
    }

    /** A WR a poster handed over (through the inbox). */
    void add(SqEntry e) {
        sq.add(e);
    }

    /** The next WR to start if the read fence and ORD let it start now, else null. */
    SqEntry startable(int ord) {
        SqEntry e = sq.nextToStart();
        if (e == null || (e.fence && orq.size() > 0) || (e.opcode.isReadLike() && orq.size() >= ord)) {
            return null;
        }
        return e;
    }

    /** The WR {@link #startable} gave has started. */
    void started() {
        sq.started();
    }

    boolean allStarted() {
        return sq.allStarted();
    }

    /** Retires the oldest WR if it is done, and returns it; else null (retirement stays in posting order). */
    SqEntry retireDone() {
        SqEntry e = sq.oldest();
        if (e == null || !e.done) {
            return null;
        }
        return sq.retireOldest();
    }

    /** Retires the oldest WR without a completion check (flush and Terminate paths), or null. */
    SqEntry takeOldest() {
        return sq.retireOldest();
    }

    /** Flush: no WR starts any more. */
    void startNothingMore() {
        sq.startNothingMore();
    }

    /** Every posted WR was retired (and none waits in the incoming queue: see {@link QpInbox#nothingPosted}). */
    boolean allRetired() {
        return sq.isEmpty();
    }

    int size() {
        return sq.size();
    }

    /** A Read or Atomic Request went out (ORQ). */
    void requestSent(SqEntry e) {
        orq.add(e);
        counters.max(Counter.ORD_HIGH_WATER, orq.size());
    }

    /** The oldest Read or Atomic Request awaiting its response, or null. */
    SqEntry oldestRequest() {
        return orq.oldest();
    }

    /** Its response arrived. */
    void requestAnswered() {
        orq.retireOldest();
    }

    /** Flush: no response is awaited any more. */
    void forgetRequests() {
        orq.clear();
    }
}
