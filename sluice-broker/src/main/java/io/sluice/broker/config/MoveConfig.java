package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.MOVE_CHUNKS_IN_FLIGHT;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_CHUNK_BYTES;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_DIRECT_IO_ENABLE;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_FILE_TRANSFER_ENABLE;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_FREE_SPACE_MARGIN_BYTES;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_MAX_CONCURRENT_PER_BROKER;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_MAX_IDLE_ROUNDS;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_PAGE_CACHE_SPILL_ENABLE;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_PAGE_CACHE_SPILL_MAX_PERCENT;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_PIN_TIMEOUT_MS;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_RETRY_BACKOFF_MS;
import static io.sluice.broker.config.BrokerConfigKeys.MOVE_SOCKET_SEND_BUFFER_BYTES;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_SOCKET_TIMEOUT_MS;

import java.util.Map;
import java.util.function.Consumer;

/**
 * The partition-move settings of a broker (see {@link BrokerConfigKeys} for each key's reason; the socket timeout is
 * replication's {@code replica.socket.timeout.ms}). Immutable; thread-safe.
 */
public record MoveConfig(
        int chunkBytes,
        int chunksInFlight,
        int maxConcurrentMoves,
        long pinTimeoutMs,
        long retryBackoffMs,
        int maxIdleRounds,
        long freeSpaceMarginBytes,
        int socketTimeoutMs,
        boolean fileTransferEnable,
        boolean directIoEnable,
        boolean pageCacheSpillEnable,
        int pageCacheSpillMaxPercent,
        int socketSendBufferBytes) {

    /** Consecutive bad chunks from one source before the next source is tried (a flaky link, or a bad disk). */
    public static final int MAX_REJECTED_CHUNKS_PER_SOURCE = 3;

    public static MoveConfig of(BrokerConfig config) {
        return new MoveConfig(
                config.integer(MOVE_CHUNK_BYTES),
                config.integer(MOVE_CHUNKS_IN_FLIGHT),
                config.integer(MOVE_MAX_CONCURRENT_PER_BROKER),
                config.longValue(MOVE_PIN_TIMEOUT_MS),
                config.longValue(MOVE_RETRY_BACKOFF_MS),
                config.integer(MOVE_MAX_IDLE_ROUNDS),
                config.longValue(MOVE_FREE_SPACE_MARGIN_BYTES),
                config.integer(REPLICA_SOCKET_TIMEOUT_MS),
                config.bool(MOVE_FILE_TRANSFER_ENABLE),
                config.bool(MOVE_DIRECT_IO_ENABLE),
                config.bool(MOVE_PAGE_CACHE_SPILL_ENABLE),
                config.integer(MOVE_PAGE_CACHE_SPILL_MAX_PERCENT),
                config.integer(MOVE_SOCKET_SEND_BUFFER_BYTES));
    }

    /** The defaults of every key, as BrokerConfigKeys defines them; for tests and tools without a broker configuration. */
    public static MoveConfig defaults() {
        return of(BrokerConfig.fromMap(Map.of()));
    }

    public MoveConfig withChunkBytes(int value) {
        return with(c -> c.chunkBytes = value);
    }

    public MoveConfig withChunksInFlight(int value) {
        return with(c -> c.chunksInFlight = value);
    }

    public MoveConfig withRetryBackoffMs(long value) {
        return with(c -> c.retryBackoffMs = value);
    }

    public MoveConfig withMaxConcurrentMoves(int value) {
        return with(c -> c.maxConcurrentMoves = value);
    }

    public MoveConfig withPageCacheSpillEnable(boolean value) {
        return with(c -> c.pageCacheSpillEnable = value);
    }

    public MoveConfig withPageCacheSpillMaxPercent(int value) {
        return with(c -> c.pageCacheSpillMaxPercent = value);
    }

    /** This configuration with {@code change} applied to a copy of its values (the same pattern as ClusterConfig). */
    private MoveConfig with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** A configuration's values, one changed by a {@code with*} method before it is built again. Not thread-safe. */
    private static final class Copy {
        int chunkBytes;
        int chunksInFlight;
        int maxConcurrentMoves;
        long pinTimeoutMs;
        long retryBackoffMs;
        int maxIdleRounds;
        long freeSpaceMarginBytes;
        int socketTimeoutMs;
        boolean fileTransferEnable;
        boolean directIoEnable;
        boolean pageCacheSpillEnable;
        int pageCacheSpillMaxPercent;
        int socketSendBufferBytes;

        Copy(MoveConfig from) {
            chunkBytes = from.chunkBytes;
            chunksInFlight = from.chunksInFlight;
            maxConcurrentMoves = from.maxConcurrentMoves;
            pinTimeoutMs = from.pinTimeoutMs;
            retryBackoffMs = from.retryBackoffMs;
            maxIdleRounds = from.maxIdleRounds;
            freeSpaceMarginBytes = from.freeSpaceMarginBytes;
            socketTimeoutMs = from.socketTimeoutMs;
            fileTransferEnable = from.fileTransferEnable;
            directIoEnable = from.directIoEnable;
            pageCacheSpillEnable = from.pageCacheSpillEnable;
            pageCacheSpillMaxPercent = from.pageCacheSpillMaxPercent;
            socketSendBufferBytes = from.socketSendBufferBytes;
        }

        MoveConfig build() {
            return new MoveConfig(
                    chunkBytes,
                    chunksInFlight,
                    maxConcurrentMoves,
                    pinTimeoutMs,
                    retryBackoffMs,
                    maxIdleRounds,
                    freeSpaceMarginBytes,
                    socketTimeoutMs,
                    fileTransferEnable,
                    directIoEnable,
                    pageCacheSpillEnable,
                    pageCacheSpillMaxPercent,
                    socketSendBufferBytes);
        }
    }
}
