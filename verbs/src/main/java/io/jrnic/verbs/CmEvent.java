package io.jrnic.verbs;

/**
 * A connection-manager event, delivered on the device event thread to the handler of
 * {@link ConnectionManager#onEvent}.
 *
 * @param type        what happened
 * @param connection  the connection (never null)
 * @param context     the QP's context object
 * @param privateData peer's private data for ESTABLISHED and REJECTED, else empty
 * @param cause       for UNREACHABLE / CONNECT_ERROR / TIMEOUT, else null
 */
public record CmEvent(CmEventType type, Connection connection, Object context, byte[] privateData, Throwable cause) {
    public CmEvent {
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }
}
