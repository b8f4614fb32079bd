package io.jrnic.verbs.spi;

import io.jrnic.verbs.AsyncEventType;

/** Implemented by the API for a device. */
public interface DeviceUpcalls {
    /** Raise an unaffiliated event (DEVICE_FATAL). */
    void event(AsyncEventType type);
}
