package io.jrnic.verbs;

/** A device offered by an installed provider. */
public record DeviceInfo(String provider, String device) {
}
