package io.jrnic.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.Jrnic;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** The tool subcommands are registered, print the originals' framing lines and map outcomes to exit codes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ToolCommandsTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Jrnic.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new String[] {String.valueOf(cl.execute(args)), out.toString(), err.toString()};
    }

    @Test
    void ucmatoseRefusesSeveralConnectionsWithExitCode2() {
        String[] r = run("ucmatose", "-c", "2");
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("-c 1"), r[2]);
    }

    @Test
    void rdmaClientWithoutServerPrintsStartAndEndOneAndExits1() {
        // port 1 on loopback: nothing listens, the connect fails at once
        String[] r = run("rdma-client", "-s", "127.0.0.1", "-p", "1", "--max-seconds", "5");
        assertEquals("1", r[0]);
        assertEquals("rdma_client: start\nrdma_client: end 1\n", r[1]);
    }

    @Test
    void ucmatoseClientFailureEndsWithReturnStatus1() {
        String[] r = run("ucmatose", "-s", "127.0.0.1", "-p", "1", "--max-seconds", "5");
        assertEquals("1", r[0]);
        assertTrue(r[1].startsWith("cmatose: starting client\ncmatose: connecting\n"), r[1]);
        assertTrue(r[1].endsWith("test complete\nreturn status 1\n"), r[1]);
    }

    @Test
    void latencyToolsAreRegisteredWithPerftestLatDefaultsAndFailWithoutAServer() {
        String[] r = run("ib-write-lat", "-R", "-p", "1", "--max-seconds", "5", "127.0.0.1");
        assertEquals("1", r[0]);
        assertTrue(r[1].contains("RDMA_Write Latency Test"), r[1]);
        assertTrue(r[2].contains("RDMA_Write Latency Test failed"), r[2]);
        assertEquals("2", run("ib-send-lat", "127.0.0.1")[0], "without -R: usage error");
        assertEquals("2", run("ib-read-lat", "-R", "-n", "0", "127.0.0.1")[0]);
    }

    @Test
    void theSixPerftestToolsAreOneCommandShapeListedInTheUsage() {
        String usage = run()[1];
        for (String tool : new String[] {"ib-send-bw", "ib-write-bw", "ib-read-bw", "ib-send-lat", "ib-write-lat", "ib-read-lat"}) {
            assertTrue(usage.contains(tool), tool + " missing from\n" + usage);
            String help = run(tool, "--help")[1];
            assertTrue(help.contains("perftest " + tool.replace('-', '_') + " -R over the soft RNIC"), help);
        }
        String[] bw = run("ib-read-bw", "-R", "-p", "1", "--max-seconds", "5", "127.0.0.1");
        assertTrue(bw[1].contains("RDMA_Read BW Test"), bw[1]);
    }
}
