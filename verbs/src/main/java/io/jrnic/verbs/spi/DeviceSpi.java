package io.jrnic.verbs.spi;

import io.jrnic.verbs.DeviceAttributes;
import io.jrnic.verbs.Stats;

/** An open device. CQs and completion channels are implemented by the API and need no provider part. */
public interface DeviceSpi {
    /** Fixed for the device's lifetime; the API enforces these limits before calling the provider. */
    DeviceAttributes attributes();

    PdSpi allocatePd();

    /** The device's connection manager back end (called once per ConnectionManager). */
    CmSpi connectionManager();

    /** Called after every PD, CQ and CM of the device was closed. */
    void close();

    /** A snapshot of the device's counters: its QPs' (live and closed) plus device-level ones. */
    default Stats stats() {
        return Stats.EMPTY;
    }
}
