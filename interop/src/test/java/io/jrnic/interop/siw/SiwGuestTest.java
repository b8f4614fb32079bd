package io.jrnic.interop.siw;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs against a real siw guest ({@link SiwGuestExtension}). Opt-in: runs only
 * with {@code -Djrnic.siw=true} (or JRNIC_SIW=1) and is skipped when qemu-system-x86_64 or the
 * image (interop/siw-guest/build-image.sh) is missing; {@code -Djrnic.siw.build=true} builds the
 * image first. Test methods may take {@link SiwGuest}, {@link GuestCapture} (this test's
 * tcpdump, running before the method starts) and {@link java.nio.file.Path} (the artifact
 * directory) parameters.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SiwGuestExtension.class)
@Tag("siw")
public @interface SiwGuestTest {
    /** Which siw build the guest loads. */
    GuestConfig.Variant variant() default GuestConfig.Variant.STOCK;

    /** Module parameters of the PARAMS build, "name=value". */
    String[] params() default {};

    /** The guest interface the per-test tcpdump watches ("any", "lo", or "eth0", on the host's tap), or "" for none. */
    String capture() default "any";
}
