package io.sluice.broker.move;

import com.sun.nio.file.ExtendedOpenOption;
import io.sluice.codec.SuppressForbidden;
import io.sluice.log.LogConfig;
import io.sluice.log.producer.ProducerSnapshotFile;
import io.sluice.log.segment.BatchStreamCheck;
import io.sluice.log.segment.SegmentIndexBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One file being received into staging: a segment's {@code .log} or the producer snapshot. Bytes below
 * {@link #verified()} passed their chunk's CRC-32C; for a segment, the whole batches below {@link #batchesVerified()}
 * also passed their own CRC-32C and offset checks (a batch cut by a chunk boundary is checked once its rest lands).
 * A segment's batches are checked on the bytes as they arrive ({@link #arrived}, a {@link BatchStreamCheck}), never
 * read back, and the result is taken only once the chunk's checksum matched ({@link #accept}); a rejected chunk
 * rewinds the check to the last verified batch. The batches taken are indexed as they are taken
 * ({@link SegmentIndexBuilder}, the index files beside the staged {@code .log}), so installing needs no second pass. What lies beyond {@link #verified()} in the file is never trusted
 * and is overwritten or truncated.
 *
 * <p>Received bytes are written with {@link #write}: where the file system takes O_DIRECT, every whole block of a run
 * that starts on a block boundary in a block-aligned buffer goes straight from that buffer to the disk (no copy into
 * the page cache); the rest, and everything on a file system that refuses O_DIRECT, through the page cache. Both
 * descriptors are of the same file, so the kernel keeps them coherent; {@link #finish} with a force makes both durable.
 *
 * <p>Not thread-safe; used by the transfer thread only.
 */
final class StagedFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StagedFile.class);

    private final Path path;
    private final boolean segment;
    private final long fileOffset;
    private final long expectedSize;
    private final long lastOffset;
    /** The batch check of a segment (null for the producer snapshot); it may run ahead of {@link #verified}. */
    private final BatchStreamCheck check;
    /** The checksum of the chunk arriving, for a file without a batch check. */
    private final CRC32C chunkCrc = new CRC32C();
    /** Reads verified bytes back into {@link #check} after a rejected chunk or a restart; shared by a transfer's files. */
    private final ByteBuffer rereadBuffer;
    /** The indexes of a segment's verified batches (null for the producer snapshot). */
    private final SegmentIndexBuilder indexes;

    private FileChannel channel;
    /** The same file opened with O_DIRECT (null: buffered writes only), and the block size its writes align to. */
    private FileChannel directChannel;

    private int directBlockBytes;
    /** Set by the transfer thread when the disk fell behind: later writes go through the page cache. */
    private volatile boolean directStopped;

    private long verified;
    private long batchesVerified;
    private long nextOffsetAtLeast;
    private long highWater;
    /** Set by the flusher thread; read after waiting for it. */
    private volatile boolean finished;
    /** The last write handed to {@link #writes} (null: none pending); awaited before the file is read or changed. */
    private volatile CompletableFuture<?> lastWrite;

    private StagedWrites writes;

    private StagedFile(
            Path path,
            boolean segment,
            long fileOffset,
            long expectedSize,
            long lastOffset,
            ByteBuffer rereadBuffer,
            SegmentIndexBuilder indexes) {
        this.path = path;
        this.indexes = indexes;
        this.segment = segment;
        this.fileOffset = fileOffset;
        this.expectedSize = expectedSize;
        this.lastOffset = lastOffset;
        this.rereadBuffer = rereadBuffer;
        this.nextOffsetAtLeast = fileOffset;
        this.check = segment ? new BatchStreamCheck(expectedSize, lastOffset).restart(0, fileOffset) : null;
    }

    /**
     * Opens (creating) a staged segment file and keeps only its prefix of whole batches that pass their CRC and
     * offset checks, as a restarted target must: nothing in the file was fsynced before the crash.
     *
     * @param rereadBuffer a direct buffer the transfer's files share for reading their own bytes back
     * @param logConfig    the partition's configuration: its installed segments use its index interval and size cap
     */
    static StagedFile segment(
            Path path,
            long baseOffset,
            long lastOffset,
            long expectedSize,
            ByteBuffer rereadBuffer,
            LogConfig logConfig,
            boolean directIo)
            throws IOException {
        SegmentIndexBuilder indexes = SegmentIndexBuilder.start(
                path.getParent(), baseOffset, logConfig.indexIntervalBytes(), logConfig.maxIndexSizeBytes());
        StagedFile file = new StagedFile(path, true, baseOffset, expectedSize, lastOffset, rereadBuffer, indexes);
        file.open();
        try {
            if (directIo) {
                file.openDirect();
            }
            file.rereadIntoCheck(Math.min(file.channel.size(), expectedSize));
            file.verified = file.check.checkedUpTo();
            file.commitCheck();
            file.rollBack();
        } catch (IOException | RuntimeException e) {
            try {
                file.close(); // the descriptors just opened, O_DIRECT's too
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return file;
    }

    /** Opens (creating) the staged producer snapshot; a complete one that parses is kept, anything else dropped. */
    static StagedFile producerSnapshot(Path path, long snapshotOffset, long expectedSize) throws IOException {
        StagedFile file = new StagedFile(path, false, snapshotOffset, expectedSize, -1, null, null);
        file.open();
        try {
            if (file.channel.size() == expectedSize) {
                try {
                    ProducerSnapshotFile.read(path);
                    file.verified = expectedSize;
                } catch (IOException e) {
                    file.verified = 0;
                }
            }
            file.rollBack();
        } catch (IOException | RuntimeException e) {
            try {
                file.close(); // the descriptor just opened
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return file;
    }

    private void open() throws IOException {
        channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            highWater = channel.size();
        } catch (IOException e) {
            try {
                channel.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** Opens the O_DIRECT descriptor; a file system that refuses it leaves this file on buffered writes. */
    @SuppressForbidden(
            reason = "com.sun.nio.file.ExtendedOpenOption.DIRECT (module jdk.unsupported) is the JDK's only way to "
                    + "open a file with O_DIRECT; a JDK without it leaves the file on buffered writes")
    private void openDirect() {
        try {
            long blockBytes = Files.getFileStore(path).getBlockSize();
            if (blockBytes <= 0 || blockBytes > StagedWrites.ALIGNMENT || Long.bitCount(blockBytes) != 1) {
                LOG.debug(
                        "{}: block size {} does not suit O_DIRECT writes; writing through the page cache",
                        path,
                        blockBytes);
                return;
            }
            directChannel = FileChannel.open(path, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
            directBlockBytes = (int) blockBytes;
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("{}: O_DIRECT refused ({}); writing through the page cache", path, e.toString());
        }
    }

    /**
     * Writes {@code bytes} at {@code position} on {@code writes}' thread ({@link #write}); everything that reads,
     * truncates, finishes or closes this file waits for it first.
     */
    void writeLater(ByteBuffer bytes, long position, StagedWrites writes) {
        this.writes = writes;
        lastWrite = writes.write(this, bytes, position);
    }

    /**
     * Waits for the writes handed to {@link #writeLater}; throws if one of the transfer's writes failed, or when the
     * transfer was cancelled before they were done ({@link java.io.InterruptedIOException}).
     */
    void awaitWrites() throws IOException {
        CompletableFuture<?> pending = lastWrite;
        if (pending != null) {
            writes.await(pending);
            writes.awaitFailure();
            lastWrite = null;
        }
    }

    /** Whether whole blocks are written with O_DIRECT. */
    boolean writesDirect() {
        return directChannel != null && !directStopped;
    }

    /**
     * Sends this file's later writes through the page cache (the disk fell behind; see {@link StagedWrites}). Called
     * on the transfer thread; the write thread sees it from its next write on.
     */
    void stopDirectWrites() {
        directStopped = true;
    }

    /** Whether {@link #stopDirectWrites} was called: this file's bytes went through the page cache. */
    boolean directWritesStopped() {
        return directStopped;
    }

    /**
     * Writes all of {@code bytes} at {@code position}: the whole blocks of an aligned run with O_DIRECT where this
     * file has it, the rest through the page cache.
     */
    void write(ByteBuffer bytes, long position) throws IOException {
        long at = position;
        if (writesDirect()) {
            int mask = directBlockBytes - 1;
            while (bytes.remaining() >= directBlockBytes
                    && (at & mask) == 0
                    && bytes.alignmentOffset(bytes.position(), directBlockBytes) == 0) {
                int limit = bytes.limit();
                bytes.limit(bytes.position() + (bytes.remaining() & ~mask));
                try {
                    at += directChannel.write(bytes, at);
                } finally {
                    bytes.limit(limit);
                }
            }
        }
        writeBuffered(bytes, at);
    }

    /** Writes all of {@code bytes} at {@code position} through the page cache. */
    void writeBuffered(ByteBuffer bytes, long position) throws IOException {
        long at = position;
        while (bytes.hasRemaining()) {
            at += channel.write(bytes, at);
        }
    }

    Path path() {
        return path;
    }

    boolean isSegment() {
        return segment;
    }

    long fileOffset() {
        return fileOffset;
    }

    long expectedSize() {
        return expectedSize;
    }

    long lastOffset() {
        return lastOffset;
    }

    long verified() {
        return verified;
    }

    long batchesVerified() {
        return batchesVerified;
    }

    FileChannel channel() {
        return channel;
    }

    boolean isComplete() {
        return verified == expectedSize && (!segment || batchesVerified == expectedSize);
    }

    /** Records that {@code bytes} landed at {@code position}; returns how many of them had landed there before. */
    long landed(long position, long bytes) {
        long resent = Math.max(0, Math.min(position + bytes, highWater) - position);
        highWater = Math.max(highWater, position + bytes);
        return resent;
    }

    /** A chunk starts arriving at the next position: {@link #chunkCrc} covers what arrives from here on. */
    void startChunk() {
        if (check != null) {
            check.startRange();
        } else {
            chunkCrc.reset();
        }
    }

    /**
     * Bytes that arrived for {@code position}, the next position of the chunk being received (a view: reading it
     * does not consume it); a segment's batches are checked on them now, the outcome taken by {@link #accept}.
     */
    void arrived(ByteBuffer bytes, long position) {
        if (check != null) {
            if (position != check.position()) {
                throw new IllegalStateException(
                        path + ": bytes for " + position + " arrived, expected " + check.position());
            }
            check.accept(bytes);
        } else {
            chunkCrc.update(bytes.duplicate());
        }
    }

    /**
     * The CRC-32C of the bytes that arrived since {@link #startChunk}: for a segment derived from its batch check's
     * checksums (no second pass over the bytes), for other files computed on them.
     */
    int chunkCrc() {
        return check != null ? check.rangeCrc() : (int) chunkCrc.getValue();
    }

    /** Forgets everything after the last verified byte (a rejected chunk, a broken payload). */
    void rollBack() throws IOException {
        awaitWrites();
        if (channel.size() > verified) {
            channel.truncate(verified);
        }
        if (check != null && check.position() != verified) {
            rereadIntoCheck(verified);
        }
    }

    /**
     * Accepts the chunk of {@code length} bytes at {@link #verified()} whose CRC matched, and takes the checks of
     * every batch it completes.
     *
     * @throws MoveException CORRUPT_MESSAGE when a batch fails (the source's file is bad: its chunk checksum matched);
     *                       the file is rolled back to its last good batch
     */
    void accept(int length) throws MoveException, IOException {
        verified += length;
        if (segment) {
            if (check.position() != verified) {
                throw new IllegalStateException(path + ": chunk accepted up to " + verified + " but the batch check "
                        + "saw bytes up to " + check.position());
            }
            takeBatchChecks();
        } else if (verified == expectedSize) {
            awaitWrites();
            try {
                ProducerSnapshotFile.read(path);
            } catch (IOException e) {
                verified = 0;
                rollBack();
                throw new MoveException(
                        Errors.CORRUPT_MESSAGE,
                        true,
                        "producer snapshot " + fileOffset + " does not parse: " + e.getMessage());
            }
        }
    }

    private void takeBatchChecks() throws MoveException, IOException {
        if (check.problem() != null) {
            long badBatch = check.problemAt();
            String problem = check.problem();
            commitCheck();
            verified = batchesVerified;
            rollBack();
            throw new MoveException(
                    Errors.CORRUPT_MESSAGE,
                    true,
                    "segment " + fileOffset + " batch at position " + badBatch + ": " + problem);
        }
        if (verified == expectedSize && !check.completeAndWhole()) {
            String problem = check.endProblem();
            commitCheck();
            verified = batchesVerified;
            rollBack();
            throw new MoveException(Errors.CORRUPT_MESSAGE, true, "segment " + fileOffset + " ends with " + problem);
        }
        commitCheck();
    }

    /** Takes the check's last good batch boundary as this file's, and indexes the batches below it. */
    private void commitCheck() {
        batchesVerified = check.checkedUpTo();
        nextOffsetAtLeast = check.nextOffsetAtLeast();
        check.drainChecked(indexes);
    }

    /** Rewinds the batch check to the last verified batch and feeds it the file's bytes from there to {@code end}. */
    private void rereadIntoCheck(long end) throws IOException {
        check.restart(batchesVerified, nextOffsetAtLeast);
        long at = batchesVerified;
        while (at < end) {
            rereadBuffer.clear().limit((int) Math.min(rereadBuffer.capacity(), end - at));
            int read = channel.read(rereadBuffer, at);
            if (read <= 0) {
                break;
            }
            rereadBuffer.flip();
            check.accept(rereadBuffer);
            check.drainChecked(indexes); // every batch passing here lies below what this file already verified
            at += read;
        }
    }

    /**
     * Finishes a complete file before it is installed: waits for its writes, writes a segment's index files, and with
     * {@code force} flushes the file and them to disk.
     */
    void finish(boolean force) throws IOException {
        awaitWrites();
        if (indexes != null) {
            indexes.persist();
        }
        if (force) {
            channel.force(true);
        }
        finished = true;
    }

    /** Whether {@link #finish} ran since this file was opened. */
    boolean isFinished() {
        return finished;
    }

    /**
     * Closes the file once its writes are done: now, or, when the transfer was cancelled while one of them is still
     * held up by the disk, on the write thread as soon as it returns (closing a descriptor waits for the system calls
     * in progress on it). An interrupted transfer (staging kept) closes at once, so that a write it left behind fails
     * instead of landing in a file the next transfer resumes.
     */
    @Override
    public void close() throws IOException {
        try {
            awaitWrites();
        } catch (IOException e) {
            LOG.debug("{}: a staged write failed before close", path, e);
        }
        CompletableFuture<?> pending = lastWrite;
        if (pending != null && !pending.isDone() && writes.cancelled()) {
            var unused = pending.whenComplete((done, failed) -> {
                try {
                    closeChannels();
                } catch (IOException e) {
                    LOG.debug("{}: closing after its last write failed", path, e);
                }
            });
            return;
        }
        closeChannels();
    }

    private void closeChannels() throws IOException {
        try (FileChannel direct = directChannel) {
            if (channel != null) {
                channel.close();
            }
        }
    }
}
