/**
 * {@link io.sluice.cluster.node.ClusterNode}: a broker's registration, state follower and controller candidacy behind
 * one small API (start/close, current, addListener, isController, createTopic, deleteTopic, electLeaders, alterIsr,
 * and Kafka's replication requests a broker forwards: alterPartition, controlledShutdown, electLeaders by type).
 */
package io.sluice.cluster.node;
