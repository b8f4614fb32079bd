package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.mpa.CrcMode;
import io.jrnic.mpa.MpaHandshaker;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.RtrType;
import io.jrnic.soft.mpa.CmFailure;
import io.jrnic.soft.mpa.MpaHandshakeHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The soft RNIC's connection set-up as it runs on a stream: {@link MpaHandshakeHandler} (both roles) in a
 * Netty pipeline, fed arbitrary bytes in fuzzer-chosen chunks; the responder answers a valid Request with an
 * accept or a reject chosen by the input. Input: u8 option bits (CRC wanted, peer-to-peer with RTR, revision 1,
 * lenient timing, accept vs reject), then records [u8 length][bytes], each one read of the stream.
 */
class ConnectionManagerFuzzTest {

    /** What the handler reported. */
    private static final class Seen implements MpaHandshakeHandler.Events {
        final List<String> events = new ArrayList<>();
        ChannelHandlerContext requestCtx;

        @Override
        public void established(ChannelHandlerContext ctx, MpaParameters params, ByteBuf leftover) {
            leftover.release();
            events.add("established");
        }

        @Override
        public void request(ChannelHandlerContext ctx, MpaSetupFrame request) {
            requestCtx = ctx;
            events.add("request");
        }

        @Override
        public void rejected(byte[] peerPrivateData) {
            events.add("rejected");
        }

        @Override
        public void failed(CmFailure failure, String detail) {
            events.add("failed");
        }

        long terminal() {
            return events.stream().filter(e -> !e.equals("request")).count();
        }
    }

    private static MpaOptions options(int bits) {
        MpaOptions.Builder b = MpaOptions.builder().crc((bits & 1) != 0 ? CrcMode.WANTED : CrcMode.OFF)
                .revision((bits & 4) != 0 ? 1 : 2).strictTiming((bits & 8) == 0);
        if ((bits & 2) != 0 && (bits & 4) == 0) {
            b.p2p(true).rtrTypes(RtrType.WRITE, RtrType.READ);
        }
        return b.build();
    }

    /**
     * Properties: no exception escapes the pipeline; the first bytes the initiator writes are a decodable MPA
     * Request; at most one outcome (established, rejected or failed) is reported; after a failure the stream is
     * closed; buffers handed over (the leftover) are released.
     */
    @FuzzTest(maxDuration = "60s")
    void initiator(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int bits = in.u8();
        Seen seen = new Seen();
        MpaHandshakeHandler h = new MpaHandshakeHandler(new MpaInitiator(options(bits)), seen);
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ByteBuf request = ch.readOutbound();
        assertNotNull(request, "no Request written at connect");
        assertNotNull(MpaSetupFrame.decode(request, MpaSetupFrame.Kind.REQUEST, MpaSetupFrame.MAX_PRIVATE_DATA));
        request.release();
        feed(ch, in, seen, null, bits);
        finish(ch, seen);
    }

    /**
     * Properties: as for the initiator; a valid Request is reported once, and the answer (accept or reject) either
     * writes a decodable Reply or is refused with the documented IllegalArgumentException/IllegalStateException.
     */
    @FuzzTest(maxDuration = "60s")
    void responder(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int bits = in.u8();
        Seen seen = new Seen();
        MpaHandshakeHandler h = new MpaHandshakeHandler(new MpaResponder(options(bits)), seen);
        EmbeddedChannel ch = new EmbeddedChannel(h);
        feed(ch, in, seen, h, bits);
        assertTrue(seen.events.stream().filter(e -> e.equals("request")).count() <= 1, seen.events::toString);
        finish(ch, seen);
    }

    private static void feed(EmbeddedChannel ch, FuzzInput in, Seen seen, MpaHandshakeHandler responder, int bits) {
        boolean answered = false;
        while (in.remaining() > 0 && ch.isOpen()) {
            byte[] chunk = in.bytes(in.u8() + 1);
            ch.writeInbound(Unpooled.wrappedBuffer(chunk));
            ch.runPendingTasks();
            ch.checkException();
            if (responder != null && seen.requestCtx != null && !answered) {
                answered = true;
                try {
                    if ((bits & 16) == 0) {
                        responder.accept(new byte[0], 4, 4);
                    } else {
                        responder.reject(new byte[] {1, 2, 3});
                    }
                } catch (IllegalArgumentException | IllegalStateException refused) {
                    // documented: the set-up already failed, or the answer does not fit the Request
                }
                ch.runPendingTasks();
                ch.checkException();
                ByteBuf reply = ch.readOutbound();
                if (reply != null) {
                    assertNotNull(MpaSetupFrame.decode(reply, MpaSetupFrame.Kind.REPLY, MpaSetupFrame.MAX_PRIVATE_DATA),
                            "the answer is not a decodable Reply");
                    reply.release();
                }
                ByteBuf leftover = responder.takeLeftover();
                if (leftover != null) {
                    leftover.release();
                }
            }
        }
    }

    private static void finish(EmbeddedChannel ch, Seen seen) {
        assertTrue(seen.terminal() <= 1, "more than one outcome: " + seen.events);
        if (seen.events.contains("failed")) {
            ch.runPendingTasks();
            assertFalse(ch.isActive(), "a failed set-up left the stream open");
        }
        ch.finishAndReleaseAll();
    }
}
