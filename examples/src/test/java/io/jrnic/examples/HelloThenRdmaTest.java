package io.jrnic.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HelloThenRdmaTest {

    @Test
    void bothSidesSayHelloThenMoveBytesByRdmaOnTheSameConnection() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(0, HelloThenRdma.run(new String[0], out));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("server: HELLO jrnic"), text);
        assertTrue(text.contains("client: HELLO /127.0.0.1:"), text);
        assertTrue(text.contains("server: RDMA?"), text);
        assertTrue(text.contains("client: RDMA!"), text);
        assertTrue(text.contains("private data \"HelloThenRdma\""), text);
        assertTrue(text.contains("client: RDMA WRITE SUCCESS, SEND SUCCESS"), text);
        assertTrue(text.contains("server: SEND received (15 bytes): " + HelloThenRdma.SENT), text);
        assertTrue(text.contains("server: RDMA WRITE placed: " + HelloThenRdma.WRITTEN), text);
        assertTrue(text.contains("server: disconnected"), text);
    }

    @Test
    void unknownArgumentsPrintTheUsage() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(2, HelloThenRdma.run(new String[] {"--what"}, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("usage:"));
    }
}
