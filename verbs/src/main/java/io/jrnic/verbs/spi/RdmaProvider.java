package io.jrnic.verbs.spi;

import java.io.IOException;
import java.util.List;

/** A verbs provider, found with {@link java.util.ServiceLoader}. Must have a public no-arg constructor. */
public interface RdmaProvider {
    /** Name used by {@code Rdma.open(name)}, e.g. "soft". */
    String name();

    /** Device names this provider offers now; the first is the default. */
    List<String> devices();

    /** Opens a device. {@code upcalls} reports unaffiliated events. */
    DeviceSpi open(String device, DeviceUpcalls upcalls) throws IOException;
}
