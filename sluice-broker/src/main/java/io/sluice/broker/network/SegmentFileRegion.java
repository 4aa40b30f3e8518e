package io.sluice.broker.network;

import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A range of a segment file sent to a socket with {@link FileChannel#transferTo} (sendfile on
 * Linux). Unlike Netty's DefaultFileRegion it never closes the channel: segment files belong to
 * the log, which keeps deleted segments open long enough for in-flight transfers to finish.
 *
 * <p>Not thread-safe; written by the connection's event loop only.
 */
public final class SegmentFileRegion extends AbstractReferenceCounted implements FileRegion {
    private final FileChannel file;
    private final long position;
    private final long count;
    private long transferred;

    public SegmentFileRegion(FileChannel file, long position, long count) {
        this.file = file;
        this.position = position;
        this.count = count;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Deprecated
    @Override
    public long transfered() {
        return transferred;
    }

    @Override
    public long transferTo(WritableByteChannel target, long regionPosition) throws IOException {
        long remaining = count - regionPosition;
        if (remaining <= 0) {
            return 0;
        }
        long written = file.transferTo(position + regionPosition, remaining, target);
        if (written == 0 && file.size() < position + count) {
            throw new IOException("segment file shrank below the fetched range [" + position + ", " + (position + count)
                    + ") while it was being sent");
        }
        transferred += written;
        return written;
    }

    @Override
    protected void deallocate() {}

    @Override
    public FileRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRegion touch() {
        return this;
    }

    @Override
    public FileRegion touch(Object hint) {
        return this;
    }
}
