package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CQ's channel is named by its type (createCq(int, CompletionChannel), CqInit); take() waits without losing a wake-up. */
class CqCreationAndTakeTest {

    @Test
    void aChannelPassedWithTheCapacityIsTheChannelNotTheContext() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            CompletionChannel ch = dev.createCompletionChannel();
            CompletionQueue cq = dev.createCq(256, ch);
            assertSame(ch, cq.channel());
            assertNull(cq.context());
            cq.requestNotify(false); // would throw "CQ has no CompletionChannel" had ch become the context
            CompletionQueue named = dev.createCq(CqInit.of(16).channel(ch).context("session"));
            assertSame(ch, named.channel());
            assertEquals("session", named.context());
            assertEquals(16, named.capacity());
            assertNull(dev.createCq(CqInit.of(4).context("x")).channel());
            assertThrows(IllegalArgumentException.class, () -> dev.createCq(CqInit.of(0)));
        }
    }

    @TempDir
    Path out;

    @Test
    void aContextCanNoLongerBePassedWhereAChannelWouldCompile() {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests run on a JDK");
        String ok = "class Ok { io.jrnic.verbs.CompletionQueue f(io.jrnic.verbs.RdmaDevice d, io.jrnic.verbs.CompletionChannel c) {"
                + " return d.createCq(256, c); } }";
        String ambiguous = "class Ambiguous { io.jrnic.verbs.CompletionQueue f(io.jrnic.verbs.RdmaDevice d, Object context) {"
                + " return d.createCq(256, context); } }";
        assertEquals("", compile(javac, "Ok", ok, out));
        String errors = compile(javac, "Ambiguous", ambiguous, out);
        assertTrue(errors.contains("createCq"), errors);
    }

    /** javac's diagnostics for {@code source} against this module's classes; empty when it compiles. */
    private static String compile(JavaCompiler javac, String name, String source, Path dir) {
        String classes = Path.of(URI.create(RdmaDevice.class.getProtectionDomain().getCodeSource().getLocation().toString()))
                .toString();
        SimpleJavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + name + ".java"),
                javax.tools.JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        StringWriter out = new StringWriter();
        boolean compiled = javac.getTask(out, null, null, List.of("-proc:none", "-classpath", classes, "-d", dir.toString()),
                null, List.of(file)).call();
        return compiled ? "" : out.toString() + " (failed)";
    }

    @Test
    void takeReturnsWhatIsQueuedAtOnceAndZeroWhenNothingComes() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            SendWr w = SendWr.rdmaWrite().local(mr.sge(0, 4)).remote(mr.advertise(), 8).signaled();
            lb.a.postSend(w.id(1));
            lb.a.postSend(w.id(2));
            Completion[] wc = Completion.array(8);
            assertEquals(2, lb.cqA.take(wc, Duration.ofSeconds(5)));
            assertEquals(1, wc[0].id());
            assertEquals(2, wc[1].id());
            assertEquals(0, lb.cqA.take(wc, Duration.ofMillis(1)));
            assertEquals(0, lb.cqA.take(wc, Duration.ZERO));
            assertEquals(0, lb.cqA.take(wc, Duration.ofMillis(-5)));
            lb.a.postSend(w.id(3));
            assertEquals(1, lb.cqA.take(wc, Duration.ofSeconds(Long.MAX_VALUE))); // no overflow
            assertEquals(3, wc[0].id());
        }
    }

    @Test
    void takeWakesForACompletionQueuedWhileItWaits() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            SendWr w = SendWr.rdmaWrite().local(mr.sge(0, 4)).remote(mr.advertise(), 8).signaled();
            for (int round = 0; round < 20; round++) {
                Completion[] wc = Completion.array(4);
                CompletableFuture<Integer> taken = new CompletableFuture<>();
                Thread taker = new Thread(() -> {
                    try {
                        taken.complete(lb.cqA.take(wc, Duration.ofMinutes(1)));
                    } catch (Throwable t) {
                        taken.completeExceptionally(t);
                    }
                });
                taker.start();
                if (round % 2 == 0) {
                    awaitWaiting(taker); // half the rounds post while the taker sleeps, half race it
                }
                lb.a.postSend(w.id(100 + round));
                assertEquals(1, taken.get(30, TimeUnit.SECONDS));
                assertEquals(100 + round, wc[0].id());
                taker.join();
            }
        }
    }

    @Test
    void closingTheCqWakesATakerWithResourceClosed() throws Exception {
        try (Loopback lb = new Loopback()) {
            CompletableFuture<Integer> taken = new CompletableFuture<>();
            Thread taker = new Thread(() -> {
                try {
                    taken.complete(lb.cqB.take(Completion.array(1), Duration.ofMinutes(1)));
                } catch (Throwable t) {
                    taken.completeExceptionally(t);
                }
            });
            taker.start();
            awaitWaiting(taker);
            lb.cqB.close();
            var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> taken.get(30, TimeUnit.SECONDS));
            assertInstanceOf(ResourceClosedException.class, e.getCause());
        }
    }

    private static void awaitWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.TIMED_WAITING && t.isAlive()) {
            Thread.onSpinWait();
            Thread.sleep(0, 100_000);
        }
    }
}
