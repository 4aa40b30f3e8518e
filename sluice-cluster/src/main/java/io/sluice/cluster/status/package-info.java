/**
 * A cluster's status read from ZooKeeper without writing anything ({@link io.sluice.cluster.status.ClusterStatusReader}):
 * the cluster id, the recorded controller, the registered brokers and the published cluster state, for
 * {@code sluice cluster status}. Failures a person can act on are {@link io.sluice.cluster.status.ClusterStatusException}s
 * with one-line messages.
 */
package io.sluice.cluster.status;
