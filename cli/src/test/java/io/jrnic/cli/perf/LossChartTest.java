package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LossChartTest {
    private static final List<String> CSV = List.of(LossChart.HEADER,
            "1500,none,0,both,bbr,jrnic,WRITE,65536,1800.5,,,,,ok,1.920,1.0663",
            "1500,none,1,both,bbr,jrnic,WRITE,65536,1500.25,,,,,ok",
            "1500,none,0,both,bbr,iperf3,stream,65536,2300,,,,12,ok,1.850,0.8043",
            "1500,none,0,both,bbr,java.nio,WRITE,65536,2100,,,,,ok",
            "1500,none,0,both,bbr,jrnic,WRITE,64,,10.5,20.25,30.5,,ok",
            "1500,none,1,both,bbr,jrnic,READ,65536,,,,,,FAILED",
            "1500,none,0,both,reno,jrnic,WRITE,65536,5400,,,,,ok",
            "9000,1gbit,0.01,both,bbr,jrnic,SEND,1048576,110.5,,,,,ok");

    @Test
    void bandwidthRowsBecomeOneSeriesPerToolOperationAndSizeAndOnePlotPerLink() {
        List<LossChart.Row> rows = LossChart.read(CSV);
        assertEquals(5, rows.size(), "latency, failed and java.nio rows are not drawn");
        assertEquals("RDMA WRITE 64K", rows.get(0).series());
        assertEquals("TCP iperf3 64K", rows.get(2).series());
        assertEquals("MTU 1500, rate none, reno", rows.get(3).link());
        assertEquals("RDMA SEND 1M", rows.get(4).series());
        assertEquals("MTU 9000, rate 1gbit, bbr", rows.get(4).link());
        CombinedDomainXYPlot plot = (CombinedDomainXYPlot) LossChart.chart(rows).getXYPlot();
        assertEquals(3, plot.getSubplots().size(), "one plot per MTU, rate and congestion control");
    }

    /** The runner's earlier headers: before the cc column, and with cc but before the CPU columns. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "mtu,rate,loss_pct,loss_dir,tool,test,bytes,bw_mb_s,p50_us,p99_us,p999_us,retransmits,result; ; MTU 1500, rate none",
            "mtu,rate,loss_pct,loss_dir,cc,tool,test,bytes,bw_mb_s,p50_us,p99_us,p999_us,retransmits,result; reno,;"
                    + " MTU 1500, rate none, reno"})
    void aCsvWrittenBeforeALaterColumnIsStillRead(String header, String cc, String link) {
        String c = cc == null ? "" : cc;
        List<LossChart.Row> rows = LossChart.read(List.of(header, "1500,none,0,both," + c + "jrnic,WRITE,65536,1800.5,,,,,ok",
                "1500,none,0,both," + c + "iperf3,stream,65536,2300,,,,12,ok"));
        assertEquals(2, rows.size());
        assertEquals(link, rows.get(0).link());
        assertEquals(1800.5, rows.get(0).mbs());
        assertEquals("TCP iperf3 64K", rows.get(1).series());
        assertEquals(2300, rows.get(1).mbs());
    }

    @Test
    void aChartOfManyLinksGrowsTallerSoEachPlotKeepsItsRoom() {
        assertEquals(SweepChart.HEIGHT, LossChart.height(LossChart.read(CSV)), "three links fit the usual height");
        List<String> six = new java.util.ArrayList<>(List.of(LossChart.HEADER));
        for (String mtu : List.of("1500", "9000")) {
            for (String rate : List.of("none", "1gbit", "10gbit")) {
                six.add(mtu + "," + rate + ",1,both,bbr,jrnic,WRITE,65536,100,,,,,ok");
            }
        }
        assertEquals(120 + 200 * 6, LossChart.height(LossChart.read(six)));
    }

    @Test
    void aCsvOfAnotherKindIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> LossChart.read(List.of(Table.CSV_HEADER)));
    }

    @Test
    void writesPngAndSvg(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("twohost.csv");
        Files.write(csv, CSV);
        for (Path p : LossChart.write(csv, dir.resolve("out"))) {
            assertTrue(Files.size(p) > 1000, p.toString());
        }
    }
}
