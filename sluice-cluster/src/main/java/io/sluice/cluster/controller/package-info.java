/**
 * The fenced controller. {@link io.sluice.cluster.controller.ControllerElection} elects one controller with Curator's
 * LeaderLatch and, atomically with leadership (a multi() checking its own latch znode), bumps the epoch in
 * {@code /controller_epoch}. {@link io.sluice.cluster.controller.FencedWriter} prefixes every controller write with a
 * check of that znode's version, so a former controller (paused past its session, partitioned) fails with
 * {@link io.sluice.cluster.controller.ControllerFencedException} and changes nothing.
 * {@link io.sluice.cluster.controller.ClusterController} runs every operation on one thread and hands each concern to
 * its part: {@code MembershipTracker} follows the registrations through a persistent recursive watch (each event
 * names the broker, so a join or a leave reads one registration; every registration is compared only after
 * take-over, a reconnect or a failure), coalescing joins that arrive together and noticing bounced brokers;
 * {@code ReplicationControl} holds every partition rule, Kafka's: leader election from the ISR, ISR changes through
 * AlterPartition fenced by leader and partition epoch, unclean election where allowed, controlled shutdown,
 * preferred/unclean ElectLeaders and the leader-imbalance check, as pure logic over the state; {@code StatePublisher}
 * publishes each change as one delta, folds deltas into snapshots when
 * {@link io.sluice.cluster.controller.SnapshotPolicy} says they weigh as much as the last one, and repairs a damaged
 * snapshot. Results carry {@link io.sluice.cluster.controller.ReplicationError}, Kafka's error codes. Per membership
 * change the work is O(size of the change).
 */
package io.sluice.cluster.controller;
