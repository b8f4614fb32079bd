package io.jrnic.verbs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The completion hand-off, checked by Lincheck: providers publish completions into a CQ from their own threads
 * ({@code CompletionQueue.push}, what {@code QpRetirement} calls for every retired work request, from the engine's
 * event loop, a posting thread or a polling thread) while consumers poll it. Every history must be linearizable
 * against {@link Model}: a FIFO of {@link #CAPACITY} completions, oldest first, a completion arriving when full is lost
 * and the overflow is sticky, completions already queued are still polled after it. Model checking explores the
 * interleavings of each scenario; stress runs it on real threads.
 *
 * <p>Default run: 2 random scenarios per mode (5-10 s, most of it Lincheck instrumenting the classes). Longer:
 * {@code ./mvnw -B test -pl verbs -Dtest=CompletionQueueLincheckTest -Djrnic.lincheckIterations=100
 * -Dsurefire.failIfNoSpecifiedTests=false} (about 12 minutes on the 2-core VM). A {@code push} without the CQ's
 * lock fails both modes (checked by hand). The CQs are made with the package-private constructor (no device quota)
 * and stay children of {@link #DEVICE} until the JVM ends: one small object per scenario run.
 */
@Param(name = "id", gen = IntGen.class, conf = "1:9")
@Param(name = "max", gen = IntGen.class, conf = "1:2")
public class CompletionQueueLincheckTest {
    static final int ITERATIONS = Integer.getInteger("jrnic.lincheckIterations", 2);
    static final int CAPACITY = 2;
    /** The CQs' device (no event handler: an overflow's async event goes nowhere). */
    private static final RdmaDevice DEVICE = Rdma.open("fake");

    private final CompletionQueue cq = new CompletionQueue(DEVICE, CAPACITY, null, "lincheck");

    /** A provider retires a work request: its completion is published. */
    @Operation
    public boolean publish(@Param(name = "id") int id) {
        Completion c = new Completion().clear();
        c.id = id;
        return cq.push(c);
    }

    /** A consumer polls up to {@code max} completions: their ids, oldest first. */
    @Operation
    public List<Long> poll(@Param(name = "max") int max) {
        Completion[] into = Completion.array(max);
        int n = cq.poll(into, 0, max);
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(into[i].id());
        }
        return ids;
    }

    @Operation
    public int size() {
        return cq.size();
    }

    @Operation
    public boolean isOverflowed() {
        return cq.isOverflowed();
    }

    /** The sequential specification. */
    public static final class Model {
        private final ArrayDeque<Long> queue = new ArrayDeque<>();
        private boolean overflowed;

        public boolean publish(int id) {
            if (queue.size() == CAPACITY) {
                overflowed = true;
                return false;
            }
            queue.add((long) id);
            return true;
        }

        public List<Long> poll(int max) {
            List<Long> ids = new ArrayList<>();
            while (ids.size() < max && !queue.isEmpty()) {
                ids.add(queue.poll());
            }
            return ids;
        }

        public int size() {
            return queue.size();
        }

        public boolean isOverflowed() {
            return overflowed;
        }
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions().iterations(ITERATIONS).invocationsPerIteration(100).threads(3).actorsPerThread(2)
                .sequentialSpecification(Model.class).check(getClass());
    }

    @Test
    void stress() {
        new StressOptions().iterations(ITERATIONS).invocationsPerIteration(1_000).threads(3).actorsPerThread(3)
                .sequentialSpecification(Model.class).check(getClass());
    }
}
