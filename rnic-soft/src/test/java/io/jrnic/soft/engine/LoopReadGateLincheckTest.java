package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import java.util.concurrent.locks.ReentrantLock;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The read gate's hand-off between the event loop and polling threads, checked by Lincheck (model checking explores
 * the interleavings of a scenario; stress runs it on real threads). The stream is modelled as numbered chunks: a
 * reader takes the next chunk from the "socket" and feeds it to the "Receiver", which must see the chunks in the
 * order the socket gave them. The loop takes a chunk between announcing its read ({@code allocate}) and retracting
 * it ({@code fed} after {@code lastBytesRead}, as the Receiver does); a poller takes one only holding the QP's lock
 * and only while {@link LoopReadGate#quiet()} (as {@link ReceiveInPlace#read} does). Two readers inside at once, or
 * a chunk fed out of order, throws: an exception no sequential run has, so Lincheck reports the interleaving. The
 * loop is one thread (its operations share a non-parallel group); pollers are any number.
 *
 * <p>Default run (about 10 s, most of it Lincheck instrumenting the classes): the fixed hand-off scenario model
 * checked over 300 interleavings, then 2 random scenarios per mode. Longer: {@code ./mvnw -B test -pl rnic-soft
 * -am -Dtest=LoopReadGateLincheckTest -Djrnic.lincheckInvocations=20000 -Djrnic.lincheckIterations=100
 * -Dsurefire.failIfNoSpecifiedTests=false}. A poller that ignores {@code quiet()} fails the fixed scenario within
 * 200 interleavings (checked by hand); the random scenarios find it only when one pairs a loop read with a poller read.
 */
public class LoopReadGateLincheckTest {
    static final int ITERATIONS = Integer.getInteger("jrnic.lincheckIterations", 2);

    private final ReentrantLock lock = new ReentrantLock();
    private final LoopReadGate gate = new LoopReadGate();
    private final RecvByteBufAllocator.Handle loop = gate.newHandle();
    /** The socket: the next chunk it gives. Plain fields: the gate alone must keep readers apart. */
    private int socket;
    /** The Receiver: the next chunk it expects. */
    private int receiver;
    /** Readers between taking a chunk and feeding it. */
    private int inside;

    public LoopReadGateLincheckTest() {
        gate.attach(lock);
    }

    /** The event loop reads a chunk (or finds the socket empty) and the Receiver feeds it. */
    @Operation(nonParallelGroup = "loop")
    public void loopRead(boolean empty) {
        ByteBuf b = loop.allocate(UnpooledByteBufAllocator.DEFAULT); // announces the read
        try {
            if (empty || gate.ended()) {
                loop.lastBytesRead(0);
            } else {
                int chunk = take("loop");
                loop.lastBytesRead(1);
                feed(chunk);
                gate.fed(); // as QpEngine does once the Receiver fed the read
            }
            loop.readComplete();
        } finally {
            b.release();
        }
    }

    /** The event loop meets the end of the stream. */
    @Operation(nonParallelGroup = "loop")
    public void loopEnd() {
        ByteBuf b = loop.allocate(UnpooledByteBufAllocator.DEFAULT);
        try {
            loop.lastBytesRead(-1);
            loop.readComplete();
        } finally {
            b.release();
        }
    }

    /** A polling thread reads in place if the lock is free and the gate quiet. */
    @Operation
    public void pollerRead() {
        if (!lock.tryLock()) {
            return;
        }
        try {
            if (gate.quiet()) {
                feed(take("poller"));
            }
        } finally {
            lock.unlock();
        }
    }

    /** A polling thread's read meets the end of the stream (or fails): it closes the gate for good. */
    @Operation
    public void pollerEnd() {
        if (!lock.tryLock()) {
            return;
        }
        try {
            if (gate.quiet()) {
                gate.end();
            }
        } finally {
            lock.unlock();
        }
    }

    private int take(String who) {
        if (inside++ != 0) {
            throw new IllegalStateException(who + " reads while another reader has not fed its bytes");
        }
        return socket++;
    }

    private void feed(int chunk) {
        inside--;
        if (chunk != receiver) {
            throw new IllegalStateException("chunk " + chunk + " fed when the Receiver expected " + receiver);
        }
        receiver++;
    }

    /**
     * The hand-off itself, in the interleavings Lincheck's model checker explores: the loop reads three times (the
     * second finds the socket empty) while one poller tries two reads and another a read, then meets the end of the
     * stream. Random scenarios (below) may miss this pairing.
     */
    @Test
    void theLoopAndPollersTakeTheStreamInTurns() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            LoopReadGateLincheckTest s = new LoopReadGateLincheckTest();
            Throwable[] failure = new Throwable[3];
            Thread[] threads = {
                new Thread(() -> run(failure, 0, () -> {
                    s.loopRead(false);
                    s.loopRead(true);
                    s.loopRead(false);
                })),
                new Thread(() -> run(failure, 1, () -> {
                    s.pollerRead();
                    s.pollerRead();
                })),
                new Thread(() -> run(failure, 2, () -> {
                    s.pollerRead();
                    s.pollerEnd();
                })),
            };
            for (Thread t : threads) {
                t.start();
            }
            for (Thread t : threads) {
                join(t);
            }
            for (Throwable f : failure) {
                if (f != null) {
                    throw new AssertionError(f);
                }
            }
        });
    }

    /** Interleavings explored per model-checked run ({@code -Djrnic.lincheckInvocations}). */
    static final int INVOCATIONS = Integer.getInteger("jrnic.lincheckInvocations", 300);

    private static void run(Throwable[] failure, int i, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            failure[i] = e;
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions().iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS).threads(3)
                .actorsPerThread(2).actorsBefore(0).actorsAfter(0).check(getClass());
    }

    @Test
    void stress() {
        new StressOptions().iterations(ITERATIONS).invocationsPerIteration(1_000).threads(3).actorsPerThread(3)
                .actorsBefore(0).actorsAfter(0).check(getClass());
    }
}
