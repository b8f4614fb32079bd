package io.jrnic.soft;

import io.jrnic.verbs.spi.DeviceSpi;
import io.jrnic.verbs.spi.DeviceUpcalls;
import io.jrnic.verbs.spi.RdmaProvider;
import java.util.List;

/**
 * The software RNIC, registered for {@link java.util.ServiceLoader} as provider "soft": iWARP
 * (RDMAP over DDP over MPA) on Netty over real TCP. {@code Rdma.open("soft")} opens device "soft0";
 * every open gives an independent device (own STag table and event loops), so two endpoints can run
 * in one JVM. System properties: {@code jrnic.soft.threads} (event loops per device, default 2),
 * {@code jrnic.soft.epoll} (false forces NIO).
 */
public final class SoftProvider implements RdmaProvider {
    public static final String NAME = "soft";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> devices() {
        return List.of("soft0");
    }

    @Override
    public DeviceSpi open(String device, DeviceUpcalls upcalls) {
        if (!devices().contains(device)) {
            throw new IllegalArgumentException("no soft device '" + device + "'");
        }
        return new SoftDevice(device, Integer.getInteger("jrnic.soft.threads", 2),
                !"false".equals(System.getProperty("jrnic.soft.epoll")), upcalls);
    }
}
