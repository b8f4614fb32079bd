package io.jrnic.verbs;

/**
 * Immutable CQ creation options (verbs "Create CQ": size, completion channel, context), for
 * {@link RdmaDevice#createCq(CqInit)}. Each field is named at the call, so a channel cannot be taken for a context:
 * {@code dev.createCq(CqInit.of(256).channel(ch).context(session))}. Defaults: no channel, no context.
 */
public final class CqInit {
    final int capacity;
    final CompletionChannel channel;
    final Object context;

    private CqInit(int capacity, CompletionChannel channel, Object context) {
        this.capacity = capacity;
        this.channel = channel;
        this.context = context;
    }

    /** A CQ of {@code capacity} entries (1..maxCqe, checked at creation). */
    public static CqInit of(int capacity) {
        return new CqInit(capacity, null, null);
    }

    /** The channel that {@link CompletionQueue#requestNotify} notifications go to (null: none). */
    public CqInit channel(CompletionChannel channel) {
        return new CqInit(capacity, channel, context);
    }

    /** The application's object, handed back by {@link CompletionQueue#context()} and CQ async events. */
    public CqInit context(Object context) {
        return new CqInit(capacity, channel, context);
    }

    public int capacity() {
        return capacity;
    }

    public CompletionChannel channel() {
        return channel;
    }

    public Object context() {
        return context;
    }

    @Override
    public String toString() {
        return "CqInit[capacity=" + capacity + " channel=" + (channel != null) + " context=" + context + "]";
    }
}
