package io.jrnic.nvmf.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CmPrivateDataTest {
    @Test
    void requestIsThirtyTwoLittleEndianOctetsInTheBindingsOrder() {
        byte[] pd = new CmPrivateData.Request(0, 3, 128, 127, 0x1234).encode();
        assertEquals(32, pd.length);
        byte[] head = {0, 0, 3, 0, (byte) 128, 0, 127, 0, 0x34, 0x12};
        for (int i = 0; i < head.length; i++) {
            assertEquals(head[i], pd[i], "octet " + i);
        }
        for (int i = head.length; i < 32; i++) {
            assertEquals(0, pd[i], "reserved octet " + i);
        }
        assertEquals(new CmPrivateData.Request(0, 3, 128, 127, 0x1234), CmPrivateData.Request.decode(pd));
    }

    @Test
    void aShortRequestIsRejectedWithInvalidLength() {
        CmPrivateData.RejectException e = assertThrows(CmPrivateData.RejectException.class,
                () -> CmPrivateData.Request.decode(new byte[8]));
        assertEquals(CmPrivateData.INVALID_LENGTH, e.status());
        assertArrayEquals(new byte[] {0, 0, 1, 0}, e.privateData());
    }

    @Test
    void anUnknownRecordFormatIsRejectedWithInvalidRecfmt() {
        byte[] pd = new CmPrivateData.Request(1, 0, 32, 31, 0).encode();
        assertEquals(CmPrivateData.INVALID_RECFMT,
                assertThrows(CmPrivateData.RejectException.class, () -> CmPrivateData.Request.decode(pd)).status());
    }

    @Test
    void acceptCarriesCrqsizeAndRejectCarriesStatus() {
        byte[] a = new CmPrivateData.Accept(0, 128).encode();
        assertEquals(32, a.length);
        assertEquals((byte) 128, a[2]);
        assertEquals(new CmPrivateData.Accept(0, 128), CmPrivateData.Accept.decode(a));
        byte[] r = new CmPrivateData.Reject(0, CmPrivateData.INVALID_HSQSIZE).encode();
        assertArrayEquals(new byte[] {0, 0, 4, 0}, r);
        assertEquals(CmPrivateData.INVALID_HSQSIZE, CmPrivateData.Reject.decode(r).status());
    }
}
