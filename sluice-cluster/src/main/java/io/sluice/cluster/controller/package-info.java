/**
 * The fenced controller. {@link io.sluice.cluster.controller.ControllerElection} elects one controller with Curator's
 * LeaderLatch and, atomically with leadership (a multi() checking its own latch znode), bumps the epoch in
 * {@code /controller_epoch}. {@link io.sluice.cluster.controller.FencedWriter} prefixes every controller write with a
 * check of that znode's version, so a former controller (paused past its session, partitioned) fails with
 * {@link io.sluice.cluster.controller.ControllerFencedException} and changes nothing.
 * {@link io.sluice.cluster.controller.ClusterController} follows membership (coalescing joins that arrive together
 * into one delta, noticing bounced brokers), runs createTopic/deleteTopic/electLeaders/alterIsr, publishes deltas,
 * folds them into snapshots and repairs a damaged snapshot.
 */
package io.sluice.cluster.controller;
