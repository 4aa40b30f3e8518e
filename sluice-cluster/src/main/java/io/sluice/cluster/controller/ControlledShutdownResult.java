package io.sluice.cluster.controller;

import io.sluice.cluster.state.PartitionRef;
import java.util.List;

/**
 * The controller's answer to a broker's controlled shutdown (Kafka's ControlledShutdownResponse): the partitions
 * whose leadership could not be moved yet (no other live in-sync replica; partitions with a single replica are not
 * listed, as in Kafka, since no retry can move them). The broker retries while the list is non-empty, up to
 * controlled.shutdown.max.retries. Immutable; safe to share.
 *
 * @param error     NONE, or BROKER_NOT_AVAILABLE when the broker is not registered
 * @param remaining partitions the broker still leads
 */
public record ControlledShutdownResult(ReplicationError error, List<PartitionRef> remaining) {
    public ControlledShutdownResult {
        remaining = List.copyOf(remaining);
    }
}
