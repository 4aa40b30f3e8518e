/**
 * Sluice's cluster membership and controller on ZooKeeper (through Apache Curator), the compressed cluster-state log,
 * and partition assignment. Imports sluice-codec only.
 *
 * <h2>Wiring a broker</h2>
 * <pre>{@code
 * ClusterConfig config = ClusterConfig.defaults();                     // tunables, one place
 * EmbeddedZooKeeper zk = null;
 * String connect = props.get("zookeeper.connect");
 * if (connect == null) {                                               // single-machine default
 *     zk = EmbeddedZooKeeper.start(dataDir.resolve("zookeeper"));
 *     connect = zk.connectString();
 * }
 * ClusterConnection conn = ClusterConnection.open(connect, config);    // host:port,...[/chroot], chroot created
 * BrokerInfo self = new BrokerInfo(brokerId, rack, List.of("PLAINTEXT"), List.of(Endpoint.of(host, port)));
 * ClusterNode node = new ClusterNode(conn.client(), self, config, true);
 * node.start();                                  // throws DuplicateBrokerIdException if the id is taken
 * node.addListener(state -> ...);                // every new ClusterState, in order, on the follower thread
 * ClusterState now = node.current();             // brokers, topics, partitions (replicas, leader, leader epoch,
 *                                                // ISR, partition epoch)
 * if (node.isController()) {
 *     node.createTopic("orders", 12, 3, Map.of()).get();
 *     node.deleteTopic("orders").get();
 *     node.electLeaders(List.of(new PartitionRef("orders", 0))).get();
 *     node.alterIsr(Map.of(new PartitionRef("orders", 0), new int[] {1, 2})).get();
 *     // Kafka's requests, forwarded by the broker's handlers; per-partition ReplicationError = Kafka's code:
 *     node.alterPartition(leaderId, List.of(new IsrChangeRequest(topicId, 0, leaderEpoch, partitionEpoch, isr)));
 *     node.controlledShutdown(brokerId);         // remaining partitions it still leads
 *     node.electLeaders(List.of(new PartitionRef("orders", 0)), ElectionType.UNCLEAN);
 * }
 * node.close(); conn.close(); if (zk != null) zk.close();
 * }</pre>
 * Controller operations on a broker that is not the controller complete with
 * {@link io.sluice.cluster.controller.NotControllerException}; a controller that lost its epoch mid-operation completes
 * with {@link io.sluice.cluster.controller.ControllerFencedException} and nothing it wrote lands.
 *
 * <h2>Packages</h2>
 * <ul>
 *   <li>{@code zk}: {@link io.sluice.cluster.zk.EmbeddedZooKeeper}, {@link io.sluice.cluster.zk.ClusterConnection},
 *       the znode layout ({@link io.sluice.cluster.zk.ZkPaths});</li>
 *   <li>{@code registry}: the ephemeral {@code /brokers/ids/<id>} registration;</li>
 *   <li>{@code controller}: election (Curator LeaderLatch + a conditional bump of {@code /controller_epoch}), the
 *       fenced writer (every write is a multi() that first checks the epoch znode's version), the controller and its
 *       parts (membership, replication rules in {@code ReplicationControl}, the state publisher);</li>
 *   <li>{@code state}: the immutable {@link io.sluice.cluster.state.ClusterState}, its follower, and
 *       {@code state.wire}: snapshot/delta records streamed through sluice-codec's StateCodec into parts below
 *       jute.maxbuffer;</li>
 *   <li>{@code assign}: rack-aware replica placement with balanced leaders (a pure function);</li>
 *   <li>{@code node}: {@link io.sluice.cluster.node.ClusterNode}, the one object a broker wires;</li>
 *   <li>{@code identity}: the {@code meta.properties} identity of a broker's log directories;</li>
 *   <li>{@code status}: a cluster's status read without writing, for {@code sluice cluster status}.</li>
 * </ul>
 */
package io.sluice.cluster;
