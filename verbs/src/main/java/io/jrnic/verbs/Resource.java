package io.jrnic.verbs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Node of the resource tree. {@link #close()} is idempotent and thread-safe: it closes the
 * children first (lowest {@link #closeRank()} first, newest first within a rank), then the node
 * itself, then detaches it from its parent.
 */
abstract class Resource implements AutoCloseable {
    private final Resource parent;
    private final List<Resource> children = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final String kind;

    Resource(Resource parent, String kind) {
        this.parent = parent;
        this.kind = kind;
        if (parent != null) {
            parent.adopt(this);
        }
    }

    private void adopt(Resource child) {
        synchronized (children) {
            checkOpen();
            children.add(child);
        }
    }

    /** Lower ranks close first among siblings. */
    int closeRank() {
        return 0;
    }

    final boolean isClosedFlag() {
        return closed.get();
    }

    /** True once close() started. */
    public boolean isClosed() {
        return closed.get();
    }

    final void checkOpen() {
        if (closed.get()) {
            throw new ResourceClosedException(kind);
        }
    }

    final String kind() {
        return kind;
    }

    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<Resource> snapshot;
        synchronized (children) {
            snapshot = new ArrayList<>(children);
        }
        java.util.Collections.reverse(snapshot);
        snapshot.sort(Comparator.comparingInt(Resource::closeRank));
        RuntimeException first = null;
        for (Resource r : snapshot) {
            try {
                r.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        try {
            release();
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
        if (parent != null) {
            synchronized (parent.children) {
                parent.children.remove(this);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Releases this node's own state (children are already closed). */
    abstract void release();

    final int childCount() {
        synchronized (children) {
            return children.size();
        }
    }
}
