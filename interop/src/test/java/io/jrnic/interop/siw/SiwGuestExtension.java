package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Boots one siw guest per JVM and shares it between {@link SiwGuestTest} classes with the same
 * configuration (a class wanting another configuration replaces it: one QEMU at a time). Before
 * each test it reboots a guest that died, and starts a tcpdump; after each test it copies the
 * capture to {@code target/siw-captures/<class>/<method>.pcap} and, when the test failed, the
 * guest console next to it. The guest is closed when the test run ends (and by a shutdown hook).
 */
public final class SiwGuestExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
        ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SiwGuestExtension.class);
    private static final Path OUT = Paths.get("target", "siw-captures");
    private static SiwGuest shared;

    /** True when the siw suite was asked for: -Djrnic.siw=true or JRNIC_SIW=1. */
    public static boolean requested() {
        String p = System.getProperty("jrnic.siw", System.getenv("JRNIC_SIW"));
        return p != null && (p.equals("true") || p.equals("1"));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        assumeTrue(requested(), "siw interop tests are opt-in: -Djrnic.siw=true or JRNIC_SIW=1");
        if (SiwImage.find().isEmpty() && Boolean.getBoolean("jrnic.siw.build")) {
            Optional<Path> script = SiwImage.buildScript();
            if (script.isPresent()) {
                Files.createDirectories(OUT);
                SiwImage.build(script.get(), OUT.resolve("build-image.log").toAbsolutePath(), 1800, false);
            }
        }
        Optional<String> why = SiwImage.unavailableReason();
        assumeTrue(why.isEmpty(), () -> "siw guest unavailable: " + why.orElse(""));
        // closes the shared guest when the whole run ends
        context.getRoot().getStore(NS).getOrComputeIfAbsent("closer", k -> (ExtensionContext.Store.CloseableResource)
                SiwGuestExtension::closeShared);
        guest(context);
    }

    private static synchronized SiwGuest guest(ExtensionContext context) throws IOException {
        GuestConfig want = config(context);
        if (shared != null && (!shared.alive() || !shared.config().equals(want))) {
            shared.close();
            shared = null;
        }
        if (shared == null) {
            shared = SiwGuest.boot(SiwImage.find().orElseThrow(), want);
            System.out.printf("[siw] booted %s %s in %.1f s%n", want.variant().dir(), want.siwParams(),
                    shared.bootTime().toMillis() / 1000.0);
        }
        return shared;
    }

    private static synchronized void closeShared() {
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    private static GuestConfig config(ExtensionContext context) {
        SiwGuestTest a = context.getRequiredTestClass().getAnnotation(SiwGuestTest.class);
        if (a == null || a.variant() == GuestConfig.Variant.STOCK) {
            return GuestConfig.defaults();
        }
        return GuestConfig.params(a.params());
    }

    private static Path outDir(ExtensionContext context) throws IOException {
        return Files.createDirectories(OUT.resolve(context.getRequiredTestClass().getSimpleName()));
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        SiwGuest g = guest(context);
        SiwGuestTest a = context.getRequiredTestClass().getAnnotation(SiwGuestTest.class);
        if (a != null && !a.capture().isEmpty()) {
            String name = context.getRequiredTestMethod().getName();
            context.getStore(NS).put("capture", GuestCapture.start(g, name, a.capture(), ""));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        GuestCapture c = context.getStore(NS).remove("capture", GuestCapture.class);
        String name = context.getRequiredTestMethod().getName();
        SiwGuest g = shared;
        if (g == null) {
            return;
        }
        if (context.getExecutionException().isPresent()) {
            SiwMatrix.saveConsole(g, outDir(context).resolve(name + "-console.txt"));
        }
        if (c != null) {
            c.finish(g, outDir(context).resolve(name + ".pcap"));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        return List.of(SiwGuest.class, GuestCapture.class, Path.class).contains(t);
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        try {
            if (t == SiwGuest.class) {
                return guest(e);
            }
            if (t == Path.class) {
                return outDir(e);
            }
            GuestCapture c = e.getStore(NS).get("capture", GuestCapture.class);
            if (c == null) {
                throw new org.junit.jupiter.api.extension.ParameterResolutionException(
                        "no per-test capture: @SiwGuestTest(capture = \"\") on " + e.getRequiredTestClass());
            }
            return c;
        } catch (IOException ex) {
            throw new org.junit.jupiter.api.extension.ParameterResolutionException("siw guest: " + ex.getMessage(), ex);
        }
    }
}
