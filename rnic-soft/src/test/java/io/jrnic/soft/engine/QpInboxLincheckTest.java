package io.jrnic.soft.engine;

import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.verbs.QpTrigger;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The post hand-off (spec-notes/engine.md, "post a send"), checked by Lincheck: any number of posting threads hand
 * send WRs to the QP's owner through {@link QpInbox} while the owner drains them into its send queue ring
 * ({@link QpEngine#drainSends}, holding the ownership) and takes them in order. The history must be linearizable
 * against a FIFO: no WR lost, none twice, each poster's WRs in its posting order. The send depth is larger than
 * the posts a scenario makes, so no post is refused: the depth check is the verbs layer's (posted and not yet
 * retired), and a credit returned after the drain, as it is there, is not atomic with the drain, so a FIFO model
 * that refuses at the depth reports refusals it cannot order (a CI run met one: post refused while the model's
 * queue held one WR). The QP is not
 * bound to a stream, so a kick has no loop to wake (the drain is the owner's operation here). Default: a few scenarios; {@code -Djrnic.lincheckIterations} for more.
 */
public class QpInboxLincheckTest {
    /** More than a scenario's posts (3 threads x 3 actors + 1 after): nothing is ever refused. */
    private static final int DEPTH = 16;
    private final QpEngine qp = new QpEngine(new MemoryTable(4), 1, DEPTH, DEPTH, new QpListener() {
        @Override
        public void transition(QpTrigger trigger, Terminate terminate, boolean received) {
        }

        @Override
        public boolean sendRetired(SqEntry entry, Status status, int byteLength, Terminate t, boolean received) {
            return true;
        }

        @Override
        public boolean recvRetired(RqEntry entry, Status status, RecvInfo info) {
            return true;
        }
    });

    /** A poster hands over a send WR. */
    @Operation
    public boolean post(int id) {
        qp.inbox().enqueueSend(new SqEntry(id, SqOpcode.SEND)); // never full within the depth: it throws otherwise
        qp.inbox().kick();
        return true;
    }

    /** The owner drains what was posted into its ring and takes every WR, oldest first. */
    @Operation(nonParallelGroup = "owner")
    public List<Integer> drain() {
        List<Integer> out = new ArrayList<>();
        qp.locked(() -> {
            qp.drainSends();
            SqEntry e;
            while (qp.sends.startable(Integer.MAX_VALUE) != null) {
                qp.sends.started();
            }
            while ((e = qp.sends.takeOldest()) != null) {
                out.add((Integer) e.token);
            }
        });
        return out;
    }

    /** The sequential model: a FIFO. */
    public static final class Fifo {
        private final java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();

        public boolean post(int id) {
            q.add(id);
            return true;
        }

        public List<Integer> drain() {
            List<Integer> out = new ArrayList<>(q);
            q.clear();
            return out;
        }
    }

    static final int ITERATIONS = Integer.getInteger("jrnic.lincheckIterations", 2);

    @Test
    void modelChecking() {
        new ModelCheckingOptions().iterations(ITERATIONS).invocationsPerIteration(300).threads(3).actorsPerThread(2)
                .actorsBefore(0).actorsAfter(1).sequentialSpecification(Fifo.class).check(getClass());
    }

    @Test
    void stress() {
        new StressOptions().iterations(ITERATIONS).invocationsPerIteration(1_000).threads(3).actorsPerThread(3)
                .actorsBefore(0).actorsAfter(1).sequentialSpecification(Fifo.class).check(getClass());
    }
}
