package io.sluice.broker.fetch;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;

/**
 * One partition of a fetch request, resolved: topic name and id, where to read from and how much, and the epoch of
 * the last batch the fetcher holds (-1 when unknown), against which the leader checks that the logs agree, and the
 * fetcher's log start offset (a follower's, for DeleteRecords' low watermark; -1 from consumers).
 *
 * <p>Immutable.
 */
record FetchTarget(
        String topic,
        Uuid topicId,
        int partition,
        long fetchOffset,
        int partitionMaxBytes,
        Errors topicError,
        int currentLeaderEpoch,
        int lastFetchedEpoch,
        long logStartOffset) {}
