package io.jrnic.examples.srp;

import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** What both transports' initiators share: slot buffers, the login's grant, credits, completions. */
abstract class InitiatorBase implements BlockInitiator {
    final ByteBuffer[] buffers;
    final BlockingQueue<Done> done = new LinkedBlockingQueue<>();
    private SrpWire.LoginAccept login;
    Semaphore credits;

    InitiatorBase(int slots, int maxTransfer) {
        buffers = new ByteBuffer[slots];
        for (int i = 0; i < slots; i++) {
            buffers[i] = ByteBuffer.allocateDirect(maxTransfer);
        }
    }

    /** Records the target's grant; the request limit becomes the credits. */
    final void loggedIn(SrpWire.LoginAccept accepted, int maxTransfer) {
        if (accepted.maxTransfer() > maxTransfer || accepted.requestLimit() < 1) {
            throw new IllegalStateException("target granted " + accepted);
        }
        login = accepted;
        credits = new Semaphore(accepted.requestLimit());
    }

    @Override
    public int slots() {
        return buffers.length;
    }

    @Override
    public int requestLimit() {
        return login.requestLimit();
    }

    @Override
    public int maxTransfer() {
        return login.maxTransfer();
    }

    @Override
    public long blocks() {
        return login.blocks();
    }

    @Override
    public ByteBuffer buffer(int slot) {
        return buffers[slot];
    }

    @Override
    public Done take(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        Done d = done.poll(timeout, unit);
        if (d == null) {
            throw new TimeoutException("no response within " + timeout + " " + unit);
        }
        return d;
    }
}
