/**
 * Multi-broker test clusters: {@link io.sluice.testkit.cluster.ProcessCluster} runs N brokers in their own JVMs
 * around one ZooKeeper server inside the test JVM (own chroot, short session timeout), so that a test can kill,
 * pause and restart brokers; {@link io.sluice.testkit.cluster.ClusterProbe} reads what the cluster published in
 * ZooKeeper (the followed cluster state, {@code /controller_epoch}, the state znodes with their zxids) so that a
 * test asserts on the coordination data itself, not only on what the clients see.
 */
package io.sluice.testkit.cluster;
