package io.sluice.log.clean;

/**
 * The log cleaner's broker-wide settings, named and defaulted like Apache Kafka's {@code log.cleaner.*} keys.
 * Per-topic settings (min.cleanable.dirty.ratio, the compaction lags, delete.retention.ms) live in
 * {@link io.sluice.log.LogConfig}. Immutable; thread-safe.
 *
 * @param enable              log.cleaner.enable (true): run the cleaner; false leaves compacted topics growing.
 * @param threads             log.cleaner.threads (1): logs cleaned at once.
 * @param dedupeBufferSize    log.cleaner.dedupe.buffer.size (128 MiB): memory of the key-to-offset maps, shared by the
 *                            threads; bounds how much dirty log one clean covers.
 * @param ioBufferLoadFactor  log.cleaner.io.buffer.load.factor (0.9): how full a map may get before a clean stops mapping.
 * @param ioBufferSize        log.cleaner.io.buffer.size (512 KiB): read and write buffer of each thread (grown for larger batches).
 * @param ioMaxBytesPerSecond log.cleaner.io.max.bytes.per.second (unlimited): read plus write rate of all threads together.
 * @param backoffMs           log.cleaner.backoff.ms (15 s): pause of a thread that found nothing to clean.
 */
public record CleanerConfig(
        boolean enable,
        int threads,
        long dedupeBufferSize,
        double ioBufferLoadFactor,
        int ioBufferSize,
        double ioMaxBytesPerSecond,
        long backoffMs) {
    public static final long DEFAULT_DEDUPE_BUFFER_SIZE = 128L * 1024 * 1024;
    public static final double DEFAULT_IO_BUFFER_LOAD_FACTOR = 0.9;
    public static final int DEFAULT_IO_BUFFER_SIZE = 512 * 1024;
    public static final double DEFAULT_IO_MAX_BYTES_PER_SECOND = Double.MAX_VALUE;
    public static final long DEFAULT_BACKOFF_MS = 15_000L;

    public CleanerConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("log.cleaner.threads must be >= 1, was " + threads);
        }
        if (dedupeBufferSize < OffsetMap.ENTRY_BYTES * 1024L) {
            throw new IllegalArgumentException("log.cleaner.dedupe.buffer.size must be >= "
                    + OffsetMap.ENTRY_BYTES * 1024L + ", was " + dedupeBufferSize);
        }
        if (!(ioBufferLoadFactor > 0 && ioBufferLoadFactor <= 1)) {
            throw new IllegalArgumentException(
                    "log.cleaner.io.buffer.load.factor must be in (0, 1], was " + ioBufferLoadFactor);
        }
        if (ioBufferSize < 4096) {
            throw new IllegalArgumentException("log.cleaner.io.buffer.size must be >= 4096, was " + ioBufferSize);
        }
        if (!(ioMaxBytesPerSecond > 0)) {
            throw new IllegalArgumentException(
                    "log.cleaner.io.max.bytes.per.second must be > 0, was " + ioMaxBytesPerSecond);
        }
        if (backoffMs < 0) {
            throw new IllegalArgumentException("log.cleaner.backoff.ms must be >= 0, was " + backoffMs);
        }
    }

    public static CleanerConfig defaults() {
        return new CleanerConfig(
                true,
                1,
                DEFAULT_DEDUPE_BUFFER_SIZE,
                DEFAULT_IO_BUFFER_LOAD_FACTOR,
                DEFAULT_IO_BUFFER_SIZE,
                DEFAULT_IO_MAX_BYTES_PER_SECOND,
                DEFAULT_BACKOFF_MS);
    }

    /** Map memory of one thread: the dedupe buffer split evenly, as Kafka splits it. */
    public long mapBytesPerThread() {
        return dedupeBufferSize / threads;
    }
}
