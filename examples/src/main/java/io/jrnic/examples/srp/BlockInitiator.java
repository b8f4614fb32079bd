package io.jrnic.examples.srp;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The initiator side of the block protocol, whatever the transport: {@link #slots()} command slots,
 * each with its data buffer; at most one command in flight per slot; completions in arrival order.
 */
public interface BlockInitiator extends AutoCloseable {
    /** Transport name for reports ("jrnic", "tcp"). */
    String name();

    /** Command slots (queue depth this initiator can keep in flight). */
    int slots();

    /** Request limit the target granted at login (credits). */
    int requestLimit();

    /** Largest transfer of one command, bytes. */
    int maxTransfer();

    /** Device size in blocks, as the target announced at login. */
    long blocks();

    /** The slot's data buffer (capacity {@link #maxTransfer()}): source of WRITEs, sink of READs. */
    ByteBuffer buffer(int slot);

    /**
     * Sends a command for {@code blocks} blocks at {@code lba} using slot {@code slot}'s buffer
     * from index 0. Waits for a credit when the request limit is exhausted.
     */
    void submit(int slot, SrpWire.Op op, long lba, int blocks) throws InterruptedException;

    /** The next completed command. @throws TimeoutException after {@code timeout} */
    Done take(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException;

    @Override
    void close();

    /**
     * A completed command.
     *
     * @param slot        the command's slot
     * @param status      {@link SrpWire#GOOD} or the failure status
     * @param stag        the STag the command advertised (0 over TCP)
     * @param invalidated the response was a Send with Invalidate of exactly {@code stag}
     * @param error       a local failure (transport), or null
     */
    record Done(int slot, byte status, int stag, boolean invalidated, String error) {
        public boolean ok() {
            return status == SrpWire.GOOD && error == null;
        }
    }
}
