package io.jrnic.soft.engine;

import io.netty.channel.Channel;
import io.netty.channel.FileRegion;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.AbstractReferenceCounted;
import java.nio.channels.WritableByteChannel;

/**
 * A message of no octets written after zero-copy payloads: the channel releases it once everything written
 * before it has left the outbound buffer (messages are written and released in order), and its release completes
 * the work requests whose slices went before it. It replaces a write promise per flush, so the zero-copy path
 * allocates nothing once warm: marks are reused ({@link TxWire} keeps the free ones).
 *
 * <p>A {@link FileRegion} of count 0 because Netty's stream transports (epoll, NIO) take one and remove it
 * unwritten. The release says whether the bytes left: a transport that removes it after writing is still active
 * with its output open; one that fails it (a write error, the close, the output shut after a Terminate) has
 * closed the socket or its output first.
 */
final class WireMark extends AbstractReferenceCounted implements FileRegion {
    private final TxWire wire;
    private final Channel ch;

    WireMark(TxWire wire, Channel ch) {
        this.wire = wire;
        this.ch = ch;
    }

    /** Ready for another write (its previous one was released). */
    WireMark arm() {
        setRefCnt(1);
        return this;
    }

    @Override
    protected void deallocate() {
        boolean sent = ch.isActive() && !(ch instanceof DuplexChannel d && d.isOutputShutdown());
        wire.markReleased(this, sent);
    }

    @Override
    public long position() {
        return 0;
    }

    @Override
    @Deprecated
    public long transfered() {
        return 0;
    }

    @Override
    public long transferred() {
        return 0;
    }

    @Override
    public long count() {
        return 0;
    }

    @Override
    public long transferTo(WritableByteChannel target, long position) {
        return 0;
    }

    @Override
    public WireMark retain() {
        super.retain();
        return this;
    }

    @Override
    public WireMark retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public WireMark touch() {
        return this;
    }

    @Override
    public WireMark touch(Object hint) {
        return this;
    }
}
