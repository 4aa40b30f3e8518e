/**
 * ZooKeeper plumbing: the in-process server for the single-machine default
 * ({@link io.sluice.cluster.zk.EmbeddedZooKeeper}), the Curator client for a {@code zookeeper.connect} value with
 * optional chroot ({@link io.sluice.cluster.zk.ClusterConnection}, {@link io.sluice.cluster.zk.ConnectString}) and
 * the znode layout ({@link io.sluice.cluster.zk.ZkPaths}).
 */
package io.sluice.cluster.zk;
