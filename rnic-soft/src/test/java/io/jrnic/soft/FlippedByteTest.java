package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.interop.fault.FaultPlan;
import io.jrnic.interop.fault.FaultProxy;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.TerminateInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One byte inverted on the wire (by the {@link FaultProxy}) inside an RDMA Write's payload, 1000 bytes into the
 * stream. With MPA CRC (RFC 5044 section 4.1) the receiver finds the CRC error: Terminate LLP/0x02 (RFC 5044
 * section 8), nothing of the FPDU placed. Without CRC nothing at the MPA layer can see a payload byte change:
 * the Write succeeds and the target holds the corrupted byte (TCP's own checksum is all that guards the data,
 * which is why jrnic asks for CRC by default). A flip in a DDP or RDMAP header is still caught by their checks
 * (version, opcode, STag, bounds), but not every header field is checked (e.g. a TO within the region).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlippedByteTest {
    private static final int LENGTH = 16 * 1024;

    private static byte[] writeThroughFlip(boolean crc, SoftPair.Side a, SoftPair.Side b, Completion[] result)
            throws Exception {
        byte[] source = new byte[LENGTH];
        new Random(1).nextBytes(source);
        byte[] target = new byte[LENGTH];
        MemoryRegion src = a.pd.register(source, Access.LOCAL_WRITE);
        MemoryRegion dst = b.pd.register(target, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        ConnectOptions o = ConnectOptions.defaults().crc(crc);
        Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), o);
        l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
        FaultPlan flip = FaultPlan.of(1).withFlip(1000).on(FaultPlan.Direction.CLIENT_TO_TARGET);
        try (FaultProxy proxy = FaultProxy.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                l.localAddress(), flip)) {
            a.cm.connect(proxy.address(), a.qp, o).get(10, TimeUnit.SECONDS);
            a.qp.postSend(SendWr.rdmaWrite().id(7).local(src, 0, LENGTH).remote(dst.stag(), 0).signaled());
            result[0] = a.await(1).get(0); // a Write completes once sent (RFC 5040): before the target checks it
            SoftPair.eventually(() -> !proxy.events().isEmpty());
            assertEquals(java.util.List.of("conn 1 CLIENT_TO_TARGET flip at 1000"), proxy.events());
            if (crc) {
                // the proxy stays up until the Terminate has crossed it
                a.awaitEvent(AsyncEventType.QP_TERMINATE_RECEIVED);
            } else {
                // wait until the last byte landed (the flipped one is far before it)
                SoftPair.eventually(() -> target[LENGTH - 1] == source[LENGTH - 1]);
            }
        }
        return target;
    }

    @Test
    void withCrcTheFlipIsAnLlpCrcErrorAndNothingIsPlaced() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Completion[] c = new Completion[1];
            byte[] target = writeThroughFlip(true, a, b, c);
            TerminateInfo sent = b.awaitEvent(AsyncEventType.QP_TERMINATE_SENT).terminate();
            TerminateInfo received = a.awaitEvent(AsyncEventType.QP_TERMINATE_RECEIVED).terminate();
            assertEquals(sent.errorCode(), received.errorCode(), "the writer is told");
            assertEquals(TerminateInfo.LAYER_LLP + "/0/0x2", sent.layer() + "/" + sent.errorType() + "/0x"
                    + Integer.toHexString(sent.errorCode()), "MPA CRC error");
            // the FPDU with the bad CRC was not placed (FPDUs before it may have been: the flip is 1000 bytes in)
            int placed = 0;
            for (byte x : target) {
                placed += x != 0 ? 1 : 0;
            }
            assertEquals(true, placed < 1000, placed + " bytes placed");
        }
    }

    @Test
    void withoutCrcAPayloadFlipIsNotDetected() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            Completion[] c = new Completion[1];
            byte[] target = writeThroughFlip(false, a, b, c);
            assertEquals(CompletionStatus.SUCCESS, c[0].status(), "documented: CRC off cannot see payload corruption");
            byte[] source = new byte[LENGTH];
            new Random(1).nextBytes(source);
            int differ = 0;
            for (int i = 0; i < LENGTH; i++) {
                differ += source[i] != target[i] ? 1 : 0;
            }
            assertEquals(1, differ, "exactly the flipped byte arrived corrupted");
            assertEquals(false, Arrays.equals(source, target));
        }
    }
}
