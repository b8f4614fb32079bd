package io.jrnic.verbs;

import java.util.Objects;

/**
 * Immutable accept options. IRD/ORD of -1 (default) mean "the listener's ConnectOptions values";
 * the provider then negotiates them relaxed like siw (responder ORD lowered to the initiator's IRD,
 * IRD raised to the initiator's ORD within device limits; RFC 6581 section 5).
 */
public final class AcceptOptions {
    private static final AcceptOptions DEFAULTS = new AcceptOptions(new byte[0], -1, -1);
    private final byte[] privateData;
    private final int ird;
    private final int ord;

    private AcceptOptions(byte[] privateData, int ird, int ord) {
        if (ird < -1 || ird > ConnectOptions.MAX_IRD_ORD || ord < -1 || ord > ConnectOptions.MAX_IRD_ORD) {
            throw new IllegalArgumentException("IRD/ORD must be -1 (default) or 0.." + ConnectOptions.MAX_IRD_ORD);
        }
        this.privateData = privateData.clone();
        this.ird = ird;
        this.ord = ord;
    }

    public static AcceptOptions defaults() {
        return DEFAULTS;
    }

    /** Private data for the MPA Reply (checked against the listener's cap at accept). */
    public AcceptOptions privateData(byte[] pd) {
        return new AcceptOptions(Objects.requireNonNull(pd), ird, ord);
    }

    public AcceptOptions privateData(RemoteBuffer rb) {
        return privateData(rb.toBytes());
    }

    public AcceptOptions ird(int v) {
        return new AcceptOptions(privateData, v, ord);
    }

    public AcceptOptions ord(int v) {
        return new AcceptOptions(privateData, ird, v);
    }

    public byte[] privateData() {
        return privateData.clone();
    }

    public int ird() {
        return ird;
    }

    public int ord() {
        return ord;
    }
}
