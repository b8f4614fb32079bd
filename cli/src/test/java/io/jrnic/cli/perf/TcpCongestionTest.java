package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TcpCongestionTest {
    @Test
    void theSysctlsValueIsReadTrimmedAndUnknownWhenAbsentOrEmpty(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("tcp_congestion_control");
        Files.writeString(f, "cubic\n");
        assertEquals("cubic", TcpCongestion.read(f));
        Files.writeString(f, "");
        assertEquals("unknown", TcpCongestion.read(f));
        assertEquals("unknown", TcpCongestion.read(dir.resolve("absent")));
    }

    @Test
    void onLinuxTheHostsValueIsOneTheKernelOffers() throws Exception {
        Path available = Path.of("/proc/sys/net/ipv4/tcp_available_congestion_control");
        if (Files.isReadable(available)) {
            String cc = TcpCongestion.ofThisHost();
            assertTrue(List.of(Files.readString(available).trim().split("\\s+")).contains(cc), cc);
        }
    }
}
