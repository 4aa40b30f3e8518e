package io.sluice.broker.fetch;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;

/**
 * One partition of a fetch request, resolved: topic name and id, where to read from and how much.
 *
 * <p>Immutable.
 */
record FetchTarget(String topic, Uuid topicId, int partition, long fetchOffset, int partitionMaxBytes,
                   Errors topicError, int currentLeaderEpoch) {
}
