/**
 * The fenced controller. {@link io.sluice.cluster.controller.ControllerElection} elects one controller with Curator's
 * LeaderLatch and, atomically with leadership (a multi() checking its own latch znode), bumps the epoch in
 * {@code /controller_epoch}. {@link io.sluice.cluster.controller.FencedWriter} prefixes every controller write with a
 * check of that znode's version, so a former controller (paused past its session, partitioned) fails with
 * {@link io.sluice.cluster.controller.ControllerFencedException} and changes nothing.
 * {@link io.sluice.cluster.controller.ClusterController} follows membership through a persistent recursive watch on the
 * registrations (each event names the broker, so a join or a leave reads one registration; every registration is
 * compared only after take-over, a reconnect or a failure), coalesces joins that arrive together into one delta,
 * notices bounced brokers, runs createTopic/deleteTopic/electLeaders/alterIsr, publishes deltas, folds them into
 * snapshots when {@link io.sluice.cluster.controller.SnapshotPolicy} says they weigh as much as the last one, and
 * repairs a damaged snapshot. Per membership change its work is O(size of the change).
 */
package io.sluice.cluster.controller;
