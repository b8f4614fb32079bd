package io.jrnic.conform.rping;

import io.jrnic.conform.Observation;

/** The result of waiting for one message of rping's exchange: the message, or what came instead. */
public record Step(byte[] ulpdu, Observation instead) {
    public boolean ok() {
        return instead == null;
    }
}
