package io.jrnic.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jrnic.ddp.TaggedRegion;
import org.junit.jupiter.api.Test;

class RemoteInvalidateTest {
    record Region(boolean valid, long stream, long baseTaggedOffset, long length, boolean remoteWrite,
                  boolean remoteRead) implements TaggedRegion {
        Region(boolean valid, long stream) {
            this(valid, stream, 0, 64, true, true);
        }

        @Override
        public boolean associatedWith(long streamId) {
            return stream == streamId;
        }
    }

    @Test
    void stagThatCannotBeInvalidatedIsRemoteProtection0x09() {
        assertNull(RemoteInvalidate.check(new Region(true, 1), 1));
        for (TaggedRegion r : new TaggedRegion[] {null, new Region(false, 1), new Region(true, 2)}) {
            RdmapError e = RemoteInvalidate.check(r, 1);
            assertEquals(RdmapError.STAG_CANNOT_BE_INVALIDATED, e, String.valueOf(r));
            assertEquals(1, e.errorType());
            assertEquals(0x09, e.errorCode());
        }
    }
}
