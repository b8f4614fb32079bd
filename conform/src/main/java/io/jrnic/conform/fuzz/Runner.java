package io.jrnic.conform.fuzz;

import io.jrnic.conform.wire.Recording;
import java.io.IOException;

/**
 * Where the {@link Fuzzer}'s executions run: the target over TCP ({@link NetworkRunner}) or, in tests, a
 * model of one. Each call is one connection; {@link io.jrnic.conform.CaseContext.UnreachableException}
 * says the target could not be reached within the connect wait.
 */
public interface Runner extends AutoCloseable {
    /** Executes a plan, recording the connection in {@code rec}. */
    Executor.Result run(Mutator.Plan plan, Recording rec) throws IOException;

    /** Sends a reproducer's execution again. */
    Executor.Result replay(FuzzInput in, Recording rec) throws IOException;

    @Override
    default void close() throws IOException {
    }
}
