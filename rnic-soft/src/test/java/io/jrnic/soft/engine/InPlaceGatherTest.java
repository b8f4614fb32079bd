package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.FileDescriptor;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The posting thread's gathering write, through a non-blocking pipe (64 KiB of room): the batch's heads and tails
 * and the payload runs leave in stream order, and what the descriptor does not take comes back as a copy of exactly
 * the octets after the last one written.
 */
class InPlaceGatherTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private final Random rnd = new Random(11);
    private ByteBuf batch;
    private ByteBuf memory;
    private ByteArrayOutputStream stream;
    private InPlaceGather gather;

    @BeforeEach
    void setUp() {
        batch = ALLOC.directBuffer(256);
        byte[] m = new byte[200_000];
        rnd.nextBytes(m);
        memory = Unpooled.directBuffer(m.length).writeBytes(m);
        stream = new ByteArrayOutputStream();
        gather = new InPlaceGather();
    }

    @AfterEach
    void tearDown() {
        batch.release();
        memory.release();
    }

    /** head 1, run [100, 80,100), tail 1 + head 2, run [90,000, 170,000), tail 2: 160,013 octets in all. */
    private void listTwoFpdus() {
        glue("H1:");
        run(100, 80_000);
        glue(":T1|H2:");
        run(90_000, 80_000);
        glue(":T2");
    }

    private void glue(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        batch.writeBytes(b);
        stream.writeBytes(b);
    }

    private void run(int at, int len) {
        gather.add(batch, memory, at, len);
        stream.writeBytes(ByteBufUtil.getBytes(memory, at, len));
    }

    @Test
    void aPartialWriteLeavesACopyOfExactlyTheOctetsItDidNotTake() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "the gathering write is epoll's");
        FileDescriptor[] pipe = FileDescriptor.pipe();
        try {
            listTwoFpdus();
            assertEquals(160_000, gather.payloadBytes());
            ByteBuf rest = gather.write(pipe[1], batch, ALLOC);
            ByteBuffer got = ByteBuffer.allocateDirect(200_000);
            int n = pipe[0].read(got, 0, got.capacity());
            assertTrue(n > 0 && n < 160_013, n + " octets in the pipe");
            byte[] all = new byte[160_013];
            got.get(0, all, 0, n);
            assertEquals(160_013 - n, rest.readableBytes());
            rest.readBytes(all, n, rest.readableBytes());
            rest.release();
            assertArrayEquals(stream.toByteArray(), all, "what the pipe took, then the rest: the stream in order");
            assertTrue(gather.isEmpty());
            assertEquals(0, gather.payloadBytes());
        } finally {
            pipe[0].close();
            pipe[1].close();
            gather.release();
        }
    }

    @Test
    void aWriteTheDescriptorTakesWholeLeavesNothing() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "the gathering write is epoll's");
        FileDescriptor[] pipe = FileDescriptor.pipe();
        try {
            glue("H:");
            run(7, 30_000);
            glue(":T");
            assertNull(gather.write(pipe[1], batch, ALLOC));
            ByteBuffer got = ByteBuffer.allocateDirect(65_536);
            int n = pipe[0].read(got, 0, got.capacity());
            byte[] all = new byte[n];
            got.get(0, all, 0, n);
            assertArrayEquals(stream.toByteArray(), all);
        } finally {
            pipe[0].close();
            pipe[1].close();
            gather.release();
        }
    }

    @Test
    void aFailedWriteLeavesEverythingForTheEventLoop() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "the gathering write is epoll's");
        FileDescriptor[] pipe = FileDescriptor.pipe();
        pipe[0].close(); // writev into a pipe nobody reads fails (EPIPE): nothing was written
        try {
            listTwoFpdus();
            ByteBuf rest = gather.write(pipe[1], batch, ALLOC);
            assertArrayEquals(stream.toByteArray(), ByteBufUtil.getBytes(rest));
            rest.release();
        } finally {
            pipe[1].close();
            gather.release();
        }
    }

    @Test
    void aPosterLettingGoUnwrittenLeavesTheWholeListAsOneCopy() {
        listTwoFpdus();
        ByteBuf all = gather.materialize(batch, ALLOC);
        assertArrayEquals(stream.toByteArray(), ByteBufUtil.getBytes(all));
        all.release();
        assertTrue(gather.isEmpty());
        gather.release();
    }

    @Test
    void roomEndsAtTheMostRunsAWriteLists() {
        for (int i = 0; i < InPlaceGather.MAX_RUNS; i++) {
            assertTrue(gather.room());
            glue("h");
            run(i, 10);
        }
        assertTrue(!gather.room(), "no room after " + InPlaceGather.MAX_RUNS + " runs");
        ByteBuf all = gather.materialize(batch, ALLOC);
        assertArrayEquals(stream.toByteArray(), ByteBufUtil.getBytes(all));
        all.release();
        assertTrue(gather.room());
        gather.release();
    }
}
