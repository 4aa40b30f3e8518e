package io.sluice.log;

import io.sluice.log.epoch.EpochEndOffset;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.producer.ActiveProducer;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A partition log's leader-epoch history and idempotent-producer state as the rest of the broker sees them
 * (OffsetForLeaderEpoch, a new leader's epoch, DescribeProducers, the cleaner), each consistent with the log end.
 * Thread-safe: every access runs under the partition's lock.
 */
final class EpochAndProducerAccess {
    private final PartitionLogState state;

    EpochAndProducerAccess(PartitionLogState state) {
        this.state = state;
    }

    /** See {@link PartitionLog#lastBatchOffsetsOfProducers}. */
    Map<Long, Long> lastBatchOffsetsOfProducers() {
        state.lock.lock();
        try {
            return state.producerState.lastBatchOffsets();
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#endOffsetForEpoch}. */
    EpochEndOffset endOffsetForEpoch(int epoch) {
        state.lock.lock();
        try {
            return state.epochCache.endOffsetFor(epoch, state.logEndOffset);
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#assignLeaderEpoch}. */
    void assignLeaderEpoch(int epoch) throws IOException {
        state.lock.lock();
        try {
            state.ensureOpen();
            state.epochCache.assign(epoch, state.logEndOffset);
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#latestEpoch}. */
    int latestEpoch() {
        state.lock.lock();
        try {
            return state.epochCache.latestEpoch();
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#leaderEpochs}. */
    List<EpochEntry> leaderEpochs() {
        state.lock.lock();
        try {
            return state.epochCache.entries();
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#activeProducers}. */
    List<ActiveProducer> activeProducers() {
        state.lock.lock();
        try {
            return state.producerState.activeProducers();
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#producerCount}. */
    int producerCount() {
        state.lock.lock();
        try {
            return state.producerState.producerCount();
        } finally {
            state.lock.unlock();
        }
    }
}
