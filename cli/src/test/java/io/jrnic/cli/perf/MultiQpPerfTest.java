package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.ConnectOptions;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiQpPerfTest {

    /** Each run ends with the check that every QP's target region holds its source's bytes (the QPs' bytes differ). */
    @ParameterizedTest
    @EnumSource(MemoryKind.class)
    void twoQpsWriteAndVerifyInEitherMemory(MemoryKind memory) throws Exception {
        // direct memory with the full warm-up (rounds until the JIT settles), which the module's other runs shorten
        // to one round (pom.xml)
        Callable<MultiQpPerf.Report> run = () -> MultiQpPerf.run("soft", ConnectOptions.defaults(), memory, 2, 5000, 1, 1,
                TcpBaseline.PLAIN, null);
        MultiQpPerf.Report r = memory == MemoryKind.DIRECT ? FullWarmUp.of(run) : run.call();
        assertNull(r.failure());
        assertEquals(memory, r.memory());
        assertTrue(r.rdmaMedian() > 0 && r.tcpMedian() > 0);
        // each run carries the CPU it used; where /proc/stat is there, the text gives both sides' figures
        assertTrue(r.rdmaCpu().length == 1 && r.rdmaCpu()[0] != null && r.tcpCpu()[0] != null);
        if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat"))) {
            java.io.StringWriter text = new java.io.StringWriter();
            MultiQpPerf.print(new java.io.PrintWriter(text), r);
            assertTrue(text.toString().matches("(?s).*\\nCPU +this machine .*RDMA [0-9.]+ cores busy, [0-9.]+ core-s/GB;"
                    + " TCP [0-9.]+ cores, [0-9.]+ core-s/GB; s/GB ratio [0-9.]+\\n.*"), text.toString());
        }
    }

    /** {@code --qps N --tcp-crc}: the streams carry a CRC per MULPDU of the QPs' loopback connections, checked. */
    @Test
    void withTheCrcBaselineTheStreamsAreFramedByTheQpsMulpdu() throws Exception {
        MultiQpPerf.Report r = MultiQpPerf.run("soft", ConnectOptions.defaults(), MemoryKind.DIRECT, 2, 5000, 1, 1,
                TcpBaseline.CRC, null);
        assertNull(r.failure());
        assertTrue(r.tcpCrcFrame() > 0 && r.tcpMedian() > 0, "frame " + r.tcpCrcFrame());
        java.io.StringWriter text = new java.io.StringWriter();
        MultiQpPerf.print(new java.io.PrintWriter(text), r);
        assertTrue(text.toString().contains("a CRC32C per " + r.tcpCrcFrame() + " octets (--tcp-crc)"), text.toString());
    }

    /** {@code --qps N --no-tcp}: the RDMA rows alone; the text says the baseline was skipped and gives no ratio. */
    @Test
    void withoutTheTcpBaselineOnlyRdmaRunsAndTheTextSaysSo() throws Exception {
        MultiQpPerf.Report r = MultiQpPerf.run("soft", ConnectOptions.defaults(), MemoryKind.DIRECT, 2, 5000, 1, 1,
                TcpBaseline.NONE, null);
        assertNull(r.failure());
        assertNull(r.tcpMbps());
        assertTrue(r.rdmaMedian() > 0);
        java.io.StringWriter text = new java.io.StringWriter();
        MultiQpPerf.print(new java.io.PrintWriter(text), r);
        assertTrue(text.toString().contains("TCP         skipped (--no-tcp)"), text.toString());
        assertFalse(text.toString().contains("ratio"), text.toString());
    }
}
