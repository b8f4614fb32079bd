package io.jrnic.cli.perf;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Virtual threads (JDK 21+, JEP 444) from code built with {@code --release 17}: {@link #available()} is
 * {@code Runtime.version().feature() >= 21}, and the threads come from
 * {@code Executors.newVirtualThreadPerTaskExecutor()} through a {@link MethodHandle} typed with JDK 17's own
 * {@link ExecutorService}, so nothing past the handle's lookup is dynamic. (A multi-release jar would need a JDK 21
 * compiler in the build, which runs on JDK 17.) On JDK 17 {@link #NEEDS} says why a virtual-thread row is empty.
 */
public final class VirtualThreads {
    /** What a row shows where virtual threads are missing. */
    public static final String NEEDS = "needs JDK 21+ (virtual threads); running on JDK " + Runtime.version().feature();

    private static final MethodHandle NEW_EXECUTOR = lookup();
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private VirtualThreads() {
    }

    /** True on JDK 21 and later. */
    public static boolean available() {
        return NEW_EXECUTOR != null;
    }

    /** A new executor starting one virtual thread per task. @throws UnsupportedOperationException before JDK 21 */
    public static ExecutorService executor() {
        if (NEW_EXECUTOR == null) {
            throw new UnsupportedOperationException(NEEDS);
        }
        try {
            return (ExecutorService) NEW_EXECUTOR.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code task} on a new virtual thread and waits for it (its exception is rethrown as thrown). */
    public static <T> T call(Callable<T> task) throws Exception {
        ExecutorService ex = executor();
        try {
            Future<T> f = ex.submit(task);
            try {
                return f.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception c ? c : e;
            } catch (InterruptedException e) {
                f.cancel(true);
                throw e;
            }
        } finally {
            ex.shutdown();
        }
    }

    /** Whether {@code t} is a virtual thread (false before JDK 21). */
    public static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static MethodHandle lookup() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findStatic(java.util.concurrent.Executors.class,
                    "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    private static MethodHandle isVirtualHandle() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
