package io.sluice.broker.cluster;

/**
 * A broker as clients see it in Metadata and DescribeCluster: id, advertised host and port, rack.
 *
 * <p>Immutable.
 */
public record BrokerNode(int id, String host, int port, String rack) {}
