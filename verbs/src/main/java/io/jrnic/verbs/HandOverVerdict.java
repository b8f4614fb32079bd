package io.jrnic.verbs;

import java.util.Objects;

/** A responder's answer to the MPA Request of a handed-over stream: accept (MPA Reply) or reject (Reply with R). */
public final class HandOverVerdict {
    private final AcceptOptions accept;
    private final byte[] rejectPrivateData;

    private HandOverVerdict(AcceptOptions accept, byte[] rejectPrivateData) {
        this.accept = accept;
        this.rejectPrivateData = rejectPrivateData;
    }

    public static HandOverVerdict accept(AcceptOptions options) {
        return new HandOverVerdict(Objects.requireNonNull(options), null);
    }

    /** Reply with R set carrying {@code privateData}; the stream is then closed (RFC 5044 section 7.1.5). */
    public static HandOverVerdict reject(byte[] privateData) {
        return new HandOverVerdict(null, Objects.requireNonNull(privateData).clone());
    }

    public boolean isAccept() {
        return accept != null;
    }

    /** The accept options, or null for a rejection. */
    public AcceptOptions acceptOptions() {
        return accept;
    }

    /** The rejection's private data, or null for an acceptance. */
    public byte[] rejectPrivateData() {
        return rejectPrivateData == null ? null : rejectPrivateData.clone();
    }
}
