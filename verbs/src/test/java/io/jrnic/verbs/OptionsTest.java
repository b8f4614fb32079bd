package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void connectDefaultsInteroperateWithSiw() {
        ConnectOptions o = ConnectOptions.defaults();
        assertEquals(2, o.mpaRevision());
        assertFalse(o.crc());
        assertFalse(o.markers());
        assertEquals(16, o.ird());
        assertEquals(16, o.ord());
        assertFalse(o.isPeerToPeer());
        assertEquals(Set.of(RtrType.WRITE, RtrType.READ), o.rtrTypes());
        assertEquals(256, o.privateDataCap());
        assertEquals(252, o.applicationPrivateDataLimit());
        assertEquals(0, o.privateData().length);
        assertEquals(0, o.mulpdu());
        assertEquals(Duration.ofSeconds(5), o.connectTimeout());
        assertEquals(Duration.ofSeconds(10), o.mpaReplyTimeout());
        assertEquals(Duration.ofSeconds(5), o.mpaRequestTimeout());
        assertEquals(Duration.ZERO, o.firstFpduDelay());
    }

    @Test
    void connectOptionsAreImmutable() {
        ConnectOptions d = ConnectOptions.defaults();
        ConnectOptions c = d.crc(true).ird(32).ord(8).privateData(new byte[] {1, 2});
        assertTrue(c.crc());
        assertEquals(32, c.ird());
        assertEquals(8, c.ord());
        assertFalse(d.crc());
        assertEquals(16, d.ird());
        byte[] pd = c.privateData();
        pd[0] = 9;
        assertEquals(1, c.privateData()[0]);
    }

    @Test
    void privateDataLimitCountsTheIrdOrdWordsInRevisionTwo() {
        assertDoesNotThrow(() -> ConnectOptions.defaults().privateData(new byte[252]));
        assertThrows(IllegalArgumentException.class, () -> ConnectOptions.defaults().privateData(new byte[253]));
        ConnectOptions rev1 = ConnectOptions.defaults().mpaRevision(1);
        assertEquals(256, rev1.applicationPrivateDataLimit());
        assertDoesNotThrow(() -> rev1.privateData(new byte[256]));
        assertDoesNotThrow(() -> ConnectOptions.defaults().privateDataCap(512).privateData(new byte[508]));
        assertThrows(IllegalArgumentException.class, () -> ConnectOptions.defaults().privateDataCap(513));
        assertEquals(16, ConnectOptions.defaults().privateData(new RemoteBuffer(1, 2, 3)).privateData().length);
    }

    @Test
    void connectOptionsRejectInvalidCombinations() {
        ConnectOptions d = ConnectOptions.defaults();
        assertThrows(IllegalArgumentException.class, () -> d.mpaRevision(3));
        assertThrows(IllegalArgumentException.class, () -> d.mpaRevision(0));
        assertThrows(IllegalArgumentException.class, () -> d.ird(0x4000));
        assertThrows(IllegalArgumentException.class, () -> d.ord(-1));
        assertThrows(IllegalArgumentException.class, () -> d.peerToPeer(new RtrType[0]));
        assertThrows(IllegalArgumentException.class, () -> d.mpaRevision(1).peerToPeer(RtrType.WRITE));
        assertThrows(IllegalArgumentException.class, () -> d.peerToPeer(RtrType.WRITE).mpaRevision(1));
        assertThrows(IllegalArgumentException.class, () -> d.mulpdu(63));
        assertThrows(IllegalArgumentException.class, () -> d.mulpdu(65536));
        assertThrows(IllegalArgumentException.class, () -> d.connectTimeout(Duration.ofSeconds(-1)));
        assertEquals(Set.of(RtrType.READ), d.peerToPeer(RtrType.READ).rtrTypes());
        assertFalse(d.peerToPeer(RtrType.READ).noPeerToPeer().isPeerToPeer());
    }

    @Test
    void acceptOptionsDefaultToListenerValues() {
        AcceptOptions a = AcceptOptions.defaults();
        assertEquals(-1, a.ird());
        assertEquals(-1, a.ord());
        assertEquals(0, a.privateData().length);
        assertEquals(4, a.ird(4).ird());
        assertEquals(-1, a.ird(4).ord());
        assertEquals(16, a.privateData(new RemoteBuffer(1, 2, 3)).privateData().length);
        assertThrows(IllegalArgumentException.class, () -> a.ird(-2));
        assertThrows(IllegalArgumentException.class, () -> a.ord(0x4000));
    }

    @Test
    void mrOptionsDefaultZeroBasedWithTheProvidersKey() {
        MrOptions m = MrOptions.of(Access.LOCAL_WRITE);
        assertTrue(m.isZeroBased());
        assertEquals(MrOptions.PROVIDER_KEY, m.key());
        assertEquals(0xAB, m.key(0xAB).key());
        assertThrows(IllegalArgumentException.class, () -> m.key(MrOptions.PROVIDER_KEY), "the sentinel is not a key");
        assertThrows(IllegalArgumentException.class, () -> m.key(0x100));
        assertEquals(1, m.accessMask());
        assertFalse(m.baseAddress(0x1000).isZeroBased());
        assertEquals(0x1000, m.baseAddress(0x1000).base());
        assertEquals(io.jrnic.verbs.spi.MrSpec.PROVIDER_CHOOSES_BASE, m.addressBased().base());
        assertThrows(IllegalArgumentException.class, () -> m.key(256));
        assertThrows(IllegalArgumentException.class, () -> m.baseAddress(-5));
        assertThrows(IllegalArgumentException.class, () -> MrOptions.of(Access.REMOTE_WRITE));
    }

    @Test
    void deviceAttributeBuilderDefaultsToSiwLimits() {
        DeviceAttributes a = DeviceAttributes.builder().build();
        assertEquals(80, a.maxInline());
        assertEquals(128, a.maxIrd());
        assertEquals(128, a.maxOrd());
        assertEquals(1, a.maxReadSge());
        assertFalse(a.has(DeviceCapability.ATOMICS));
        assertFalse(a.has(DeviceCapability.MEMORY_WINDOW_TYPE_2));
        assertTrue(a.has(DeviceCapability.FAST_REGISTRATION));
        assertThrows(UnsupportedOperationException.class, () -> a.capabilities().add(DeviceCapability.ATOMICS));
        assertThrows(IllegalArgumentException.class, () -> DeviceAttributes.builder().maxQp(0).build());
    }

    @Test
    void sendWrFactoriesSetOpcodeAndOperands() {
        SendWr w = SendWr.compareSwap(5, 6);
        assertEquals(WrOpcode.ATOMIC_COMPARE_SWAP, w.opcode());
        assertEquals(5, w.compareAdd());
        assertEquals(6, w.swap());
        assertEquals(0x77, SendWr.sendWithInvalidate(0x77).invalidateStag());
        assertTrue(SendWr.sendWithInvalidate(0x77).hasInvalidateStag());
        assertTrue(new SendWr(WrOpcode.SEND_WITH_SE).isSolicited());
        assertTrue(SendWr.send().solicited().isSolicited());
        assertFalse(SendWr.send().isSolicited());
        assertFalse(SendWr.send().isSignaled());
        assertEquals(9L, SendWr.immediateData(9).immediateData());
        assertEquals(CompletionOpcode.RDMA_WRITE_WITH_IMMEDIATE, WrOpcode.RDMA_WRITE_WITH_IMMEDIATE.completionOpcode());
    }

    @Test
    void timingIsStrictAndTerminatesRfcByDefaultEachAPerConnectionChoice() {
        ConnectOptions d = ConnectOptions.defaults();
        assertFalse(d.lenientTiming());
        assertEquals(TerminateLayout.RFC, d.terminateLayout());
        ConnectOptions o = d.crc(true).ird(3).lenientTiming(true).terminateLayout(TerminateLayout.EITHER).privateDataCap(512);
        assertTrue(o.lenientTiming());
        assertEquals(TerminateLayout.EITHER, o.terminateLayout());
        assertTrue(o.crc());
        assertEquals(3, o.ird());
        assertEquals(512, o.privateDataCap());
        assertFalse(d.lenientTiming(), "defaults unchanged");
        assertThrows(NullPointerException.class, () -> d.terminateLayout(null));
        assertTrue(HandOverOptions.responder(d).strictTiming());
        assertTrue(HandOverOptions.responder(d).strictTiming(false).connectOptions().lenientTiming());
        assertThrows(IllegalArgumentException.class, () -> new TerminateInfo(0, 0, 0, true, TerminateLayout.EITHER));
        assertEquals(TerminateLayout.RFC, new TerminateInfo(0, 1, 9, true).layout());
    }
}
