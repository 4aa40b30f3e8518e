package io.sluice.cluster.controller;

import java.util.UUID;

/**
 * One partition by topic id and index (ids, not names: a topic deleted and re-created under its name is another
 * topic). Immutable; safe to share.
 */
record PartitionKey(UUID topicId, int partition) {}
