package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.conform.Role;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** conform and fuzz share one target / hook option set (the TargetOptions mixin). */
class TargetOptionsTest {
    @Test
    void bothCommandsOfferTheSameTargetAndHookOptions() {
        for (String command : new String[] {"conform", "fuzz"}) {
            String help = CliRun.of(command, "--help").out();
            for (String option : new String[] {"TARGET", "-p=PORT", "--serve=PORT", "--hook-before=CMD", "--hook-health=CMD",
                    "--first-fpdu-delay-ms=MS"}) {
                assertTrue(help.contains(option), command + " lacks " + option + ":\n" + help);
            }
            CliRun none = CliRun.of(command);
            assertEquals(2, none.exit(), none.out() + none.err());
            assertEquals(command + ": " + TargetOptions.USAGE, none.err().strip());
        }
    }

    @Test
    void theTargetIsHostPortOrHostWithDashPAndServeChoosesTheResponderRole() throws Exception {
        ConformCommand c = new ConformCommand();
        new CommandLine(c).parseArgs("127.0.0.1:9");
        assertEquals(Role.INITIATOR, c.t.role());
        assertEquals(new InetSocketAddress("127.0.0.1", 9), c.t.address());
        FuzzCommand f = new FuzzCommand();
        new CommandLine(f).parseArgs("-p", "8", "127.0.0.1", "--hook-health", "true");
        assertEquals(new InetSocketAddress("127.0.0.1", 8), f.t.address());
        assertEquals("true", f.t.hookHealth);
        FuzzCommand s = new FuzzCommand();
        new CommandLine(s).parseArgs("--serve", "7175");
        assertEquals(Role.RESPONDER, s.t.role());
        assertEquals(7175, s.t.servePort());
        assertNull(s.t.address());
    }
}
