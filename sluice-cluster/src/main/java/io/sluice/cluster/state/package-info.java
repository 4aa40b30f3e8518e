/**
 * The cluster state: an immutable {@link io.sluice.cluster.state.ClusterState} (brokers, topics with ids and configs,
 * per partition replicas, leader, leader epoch and ISR; each delta applied shares every broker chunk and topic it
 * does not touch), kept in ZooKeeper as a compressed snapshot in parts plus
 * small sequential deltas, read by {@link io.sluice.cluster.state.StateReader} and followed by every broker with
 * {@link io.sluice.cluster.state.ClusterStateFollower}. Typed errors: {@link io.sluice.cluster.state.StaleEpochException}
 * (a change from an older controller), {@link io.sluice.cluster.state.CorruptStateException} (unreadable parts or
 * deltas; the last good state is kept), {@link io.sluice.cluster.state.StateGapException}.
 */
package io.sluice.cluster.state;
