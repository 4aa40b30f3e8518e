package io.sluice.broker.move;

import io.sluice.log.producer.ProducerSnapshotFile;
import io.sluice.log.segment.BatchScanner;
import io.sluice.record.batch.RecordBatchView;
import org.apache.kafka.common.protocol.Errors;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

/**
 * One file being received into staging: a segment's {@code .log} or the producer snapshot. Bytes below
 * {@link #verified()} passed their chunk's CRC-32C; for a segment, the whole batches below {@link #batchesVerified()}
 * also passed their own CRC-32C and offset checks (a batch cut by a chunk boundary is checked once its rest lands).
 * What lies beyond {@link #verified()} in the file is never trusted and is overwritten or truncated.
 *
 * <p>Not thread-safe; used by the transfer thread only.
 */
final class StagedFile implements AutoCloseable {
    private final Path path;
    private final boolean segment;
    private final long fileOffset;
    private final long expectedSize;
    private final long lastOffset;
    private final BatchScanner scanner;
    private FileChannel channel;
    private long verified;
    private long batchesVerified;
    private long nextOffsetAtLeast;
    private long highWater;

    private StagedFile(Path path, boolean segment, long fileOffset, long expectedSize, long lastOffset, BatchScanner scanner) {
        this.path = path;
        this.segment = segment;
        this.fileOffset = fileOffset;
        this.expectedSize = expectedSize;
        this.lastOffset = lastOffset;
        this.scanner = scanner;
        this.nextOffsetAtLeast = fileOffset;
    }

    /**
     * Opens (creating) a staged segment file and keeps only its prefix of whole batches that pass their CRC and
     * offset checks, as a restarted target must: nothing in the file was fsynced before the crash.
     */
    static StagedFile segment(Path path, long baseOffset, long lastOffset, long expectedSize, BatchScanner scanner)
            throws IOException {
        StagedFile file = new StagedFile(path, true, baseOffset, expectedSize, lastOffset, scanner);
        file.open();
        file.verified = Math.min(file.channel.size(), expectedSize);
        try {
            file.verifyBatches();
        } catch (MoveException e) {
            // a torn or stale tail: keep the verified prefix
        }
        file.verified = file.batchesVerified;
        file.rollBack();
        return file;
    }

    /** Opens (creating) the staged producer snapshot; a complete one that parses is kept, anything else dropped. */
    static StagedFile producerSnapshot(Path path, long snapshotOffset, long expectedSize) throws IOException {
        StagedFile file = new StagedFile(path, false, snapshotOffset, expectedSize, -1, null);
        file.open();
        if (file.channel.size() == expectedSize) {
            try {
                ProducerSnapshotFile.read(path);
                file.verified = expectedSize;
            } catch (IOException e) {
                file.verified = 0;
            }
        }
        file.rollBack();
        return file;
    }

    private void open() throws IOException {
        channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        highWater = channel.size();
    }

    Path path() { return path; }
    boolean isSegment() { return segment; }
    long fileOffset() { return fileOffset; }
    long expectedSize() { return expectedSize; }
    long lastOffset() { return lastOffset; }
    long verified() { return verified; }
    long batchesVerified() { return batchesVerified; }
    FileChannel channel() { return channel; }

    boolean isComplete() {
        return verified == expectedSize && (!segment || batchesVerified == expectedSize);
    }

    /** Records that {@code bytes} landed at {@code position}; returns how many of them had landed there before. */
    long landed(long position, long bytes) {
        long resent = Math.max(0, Math.min(position + bytes, highWater) - position);
        highWater = Math.max(highWater, position + bytes);
        return resent;
    }

    /** Forgets everything after the last verified byte (a rejected chunk, a broken payload). */
    void rollBack() throws IOException {
        if (channel.size() > verified) {
            channel.truncate(verified);
        }
    }

    /**
     * Accepts the chunk of {@code length} bytes at {@link #verified()} whose CRC matched, and checks every batch it
     * completes.
     *
     * @throws MoveException CORRUPT_MESSAGE when a batch fails (the source's file is bad: its chunk checksum matched);
     *                       the file is rolled back to its last good batch
     */
    void accept(int length) throws MoveException, IOException {
        verified += length;
        if (segment) {
            verifyBatches();
        } else if (verified == expectedSize) {
            try {
                ProducerSnapshotFile.read(path);
            } catch (IOException e) {
                verified = 0;
                rollBack();
                throw new MoveException(Errors.CORRUPT_MESSAGE, true, "producer snapshot " + fileOffset
                        + " does not parse: " + e.getMessage());
            }
        }
    }

    private void verifyBatches() throws MoveException, IOException {
        while (verified - batchesVerified >= RECORD_BATCH_OVERHEAD) {
            RecordBatchView batch = scanner.readHeader(channel, batchesVerified, expectedSize);
            String problem = batch == null ? scanner.problem() : null;
            if (batch != null && batchesVerified + batch.sizeInBytes() > verified) {
                return;
            }
            if (problem == null && (batch.baseOffset() < nextOffsetAtLeast || batch.lastOffset() > lastOffset)) {
                problem = "offsets " + batch.baseOffset() + ".." + batch.lastOffset() + " outside [" + nextOffsetAtLeast
                        + ", " + lastOffset + "]";
            }
            if (problem == null && !scanner.isCrcValid(channel, batchesVerified)) {
                problem = "CRC-32C mismatch in batch at baseOffset " + batch.baseOffset();
            }
            if (problem != null) {
                verified = batchesVerified;
                rollBack();
                throw new MoveException(Errors.CORRUPT_MESSAGE, true, "segment " + fileOffset + " batch at position "
                        + batchesVerified + ": " + problem);
            }
            nextOffsetAtLeast = batch.lastOffset() + 1;
            batchesVerified += batch.sizeInBytes();
        }
        if (verified == expectedSize && (batchesVerified != expectedSize || nextOffsetAtLeast != lastOffset + 1)) {
            long goodUpTo = batchesVerified;
            verified = batchesVerified;
            rollBack();
            throw new MoveException(Errors.CORRUPT_MESSAGE, true, "segment " + fileOffset + " ends with "
                    + (expectedSize - goodUpTo) + " bytes that are not a whole batch, or before its last offset "
                    + lastOffset + " (next offset " + nextOffsetAtLeast + ")");
        }
    }

    /** Flushes a complete file to disk before it is installed. */
    void force() throws IOException {
        channel.force(true);
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
