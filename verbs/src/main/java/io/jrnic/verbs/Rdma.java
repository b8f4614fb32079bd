package io.jrnic.verbs;

import io.jrnic.verbs.spi.RdmaProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.ServiceLoader;

/** Entry point: providers are found with {@link ServiceLoader} (no native library, a plain jar). */
public final class Rdma {
    private Rdma() {
    }

    /** Every installed provider. */
    public static List<RdmaProvider> providers() {
        List<RdmaProvider> out = new ArrayList<>();
        ServiceLoader.load(RdmaProvider.class).forEach(out::add);
        return out;
    }

    /** Every device of every installed provider. */
    public static List<DeviceInfo> devices() {
        List<DeviceInfo> out = new ArrayList<>();
        for (RdmaProvider p : providers()) {
            for (String d : p.devices()) {
                out.add(new DeviceInfo(p.name(), d));
            }
        }
        return out;
    }

    /** Opens the provider's default (first) device. @throws NoSuchElementException when not installed or deviceless */
    public static RdmaDevice open(String providerName) {
        RdmaProvider p = provider(providerName);
        List<String> devs = p.devices();
        if (devs.isEmpty()) {
            throw new NoSuchElementException("provider " + providerName + " has no device");
        }
        return open(p, devs.get(0));
    }

    /** Opens a named device of a provider. */
    public static RdmaDevice open(String providerName, String device) {
        RdmaProvider p = provider(providerName);
        if (!p.devices().contains(device)) {
            throw new NoSuchElementException("provider " + providerName + " has no device " + device);
        }
        return open(p, device);
    }

    /** Opens a device of a provider instance (tests, embedding without ServiceLoader). */
    public static RdmaDevice open(RdmaProvider provider, String device) {
        try {
            return new RdmaDevice(provider, device);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RdmaProvider provider(String name) {
        for (RdmaProvider p : providers()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new NoSuchElementException("no RDMA provider named '" + name + "' on the class path");
    }
}
