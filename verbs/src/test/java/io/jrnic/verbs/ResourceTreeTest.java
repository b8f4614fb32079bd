package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class ResourceTreeTest {

    @Test
    void serviceLoaderFindsProvidersAndDevices() {
        assertTrue(Rdma.devices().contains(new DeviceInfo("fake", "fake0")));
        assertTrue(Rdma.devices().contains(new DeviceInfo("fake", "fake1")));
        try (RdmaDevice d = Rdma.open("fake", "fake1")) {
            assertEquals("fake1", d.name());
            assertEquals("fake", d.providerName());
        }
        assertThrows(NoSuchElementException.class, () -> Rdma.open("nope"));
        assertThrows(NoSuchElementException.class, () -> Rdma.open("fake", "fake9"));
    }

    @Test
    void closingTheDeviceClosesChildrenQpsBeforeRegionsAndPdBeforeDevice() {
        RdmaDevice dev = Rdma.open("fake");
        FakeProvider.FakeDevice fake = FakeProvider.last();
        ProtectionDomain pd = dev.allocatePd();
        CompletionQueue cq = dev.createCq(8);
        QueuePair qp = pd.createQp(QpInit.rc(cq));
        MemoryRegion mr = pd.register(new byte[64], Access.LOCAL_WRITE);
        SharedReceiveQueue srq = pd.createSrq(4, 1, null);
        QueuePair qp2 = pd.createQp(QpInit.rc(cq).srq(srq));  // created after the region
        dev.close();
        assertEquals(List.of("qp", "qp", "srq", "mr", "pd", "device"), fake.closed);
        for (Resource r : new Resource[] {pd, cq, qp, qp2, mr, srq, dev}) {
            assertTrue(r.isClosed(), r.kind());
        }
    }

    @Test
    void closeIsIdempotent() {
        RdmaDevice dev = Rdma.open("fake");
        FakeProvider.FakeDevice fake = FakeProvider.last();
        ProtectionDomain pd = dev.allocatePd();
        MemoryRegion mr = pd.register(new byte[8], Access.LOCAL_WRITE);
        mr.close();
        mr.close();
        pd.close();
        pd.close();
        dev.close();
        dev.close();
        assertEquals(List.of("mr", "pd", "device"), fake.closed);
    }

    @Test
    void closedResourcesRejectUse() {
        RdmaDevice dev = Rdma.open("fake");
        ProtectionDomain pd = dev.allocatePd();
        CompletionQueue cq = dev.createCq(4);
        pd.close();
        assertThrows(ResourceClosedException.class, () -> pd.register(new byte[4], Access.LOCAL_WRITE));
        assertThrows(ResourceClosedException.class, () -> pd.createQp(QpInit.rc(cq)));
        dev.close();
        assertThrows(ResourceClosedException.class, () -> cq.poll(Completion.array(1)));
        assertThrows(ResourceClosedException.class, dev::allocatePd);
    }

    @Test
    void closingACqClosesTheQpsThatUseIt() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq1 = dev.createCq(4);
            CompletionQueue cq2 = dev.createCq(4);
            QueuePair uses = pd.createQp(QpInit.rc(cq1, cq2));
            QueuePair other = pd.createQp(QpInit.rc(cq2));
            cq1.close();
            assertTrue(uses.isClosed());
            assertFalse(other.isClosed());
        }
    }

    @Test
    void registeredByteBufIsRetainedUntilDeregistration() {
        ByteBuf buf = Unpooled.directBuffer(128);
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            MemoryRegion mr = pd.register(buf, Access.LOCAL_WRITE);
            assertEquals(2, buf.refCnt());
            assertEquals(128, mr.length());
            mr.close();
            assertEquals(1, buf.refCnt());
            pd.register(buf, Access.LOCAL_WRITE);
            assertEquals(2, buf.refCnt());
        }
        assertEquals(1, buf.refCnt());
        assertTrue(buf.release());
    }

    @Test
    void registrationCoversWholeCapacityIndependentOfPosition() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            ByteBuffer bb = ByteBuffer.allocate(100).position(40).limit(50);
            MemoryRegion mr = pd.register(bb, Access.LOCAL_WRITE);
            assertEquals(100, mr.length());
            mr.memory().view().setByte(99, 7);
            assertEquals(7, bb.array()[99]);
            assertEquals(40, bb.position());
            assertThrows(IllegalArgumentException.class,
                    () -> pd.register(ByteBuffer.allocate(8).asReadOnlyBuffer(), Access.LOCAL_WRITE));
            assertEquals(8, pd.register(ByteBuffer.allocate(8).asReadOnlyBuffer(), Access.REMOTE_READ).length());
        }
    }

    @Test
    void sgeAndAdvertiseStayInsideTheRegion() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            MemoryRegion mr = pd.register(Memory.of(new byte[256]), MrOptions.of(Access.LOCAL_WRITE, Access.REMOTE_READ).key(0x5A));
            assertEquals(0x5A, STag.key(mr.stag()));
            assertEquals(new Sge(mr, 250, 6), mr.sge(250, 6));
            assertThrows(IndexOutOfBoundsException.class, () -> mr.sge(250, 7));
            assertThrows(IndexOutOfBoundsException.class, () -> mr.sge(-1, 1));
            RemoteBuffer rb = mr.advertise();
            assertEquals(new RemoteBuffer(mr.stag(), 0, 256), rb);
            assertEquals(new RemoteBuffer(mr.stag(), 16, 32), mr.advertise(16, 32));
            MemoryRegion based = pd.register(Memory.of(new byte[16]), MrOptions.of(Access.REMOTE_READ).baseAddress(0x7000));
            assertEquals(0x7000, based.address());
            assertEquals(new RemoteBuffer(based.stag(), 0x7004, 8), based.advertise(4, 8));
            MemoryRegion local = pd.register(new byte[8], Access.LOCAL_WRITE);
            assertThrows(IllegalStateException.class, local::advertise);
        }
    }

    @Test
    void deviceLimitsAreEnforced() {
        DeviceAttributes saved = FakeProvider.nextAttributes;
        FakeProvider.nextAttributes = DeviceAttributes.builder().maxPd(1).maxCqe(16).build();
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            assertThrows(IllegalStateException.class, dev::allocatePd);
            pd.close();
            ProtectionDomain pd2 = dev.allocatePd();
            assertThrows(IllegalArgumentException.class, () -> dev.createCq(17));
            assertThrows(IllegalArgumentException.class, () -> dev.createCq(0));
            CompletionQueue cq = dev.createCq(16);
            assertThrows(IllegalArgumentException.class, () -> pd2.createQp(QpInit.rc(cq).maxSge(7)));
            assertThrows(IllegalArgumentException.class, () -> pd2.createQp(QpInit.rc(cq).maxInline(81)));
            assertThrows(IllegalArgumentException.class, () -> pd2.createQp(QpInit.rc(cq).maxSendWr(0)));
        } finally {
            FakeProvider.nextAttributes = saved;
        }
    }
}
