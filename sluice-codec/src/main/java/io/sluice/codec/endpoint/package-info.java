/**
 * Node addresses as bytes ({@link io.sluice.codec.endpoint.Endpoint}: cached hash, byte-wise equality; strings only
 * when parsing configuration or logging) and their seeded hashes (the K-ring membership view built on them,
 * {@code io.sluice.bench.codec.MembershipView}, lives in sluice-bench, its only user). Maps keyed by endpoint travel as two parallel lists (as sluice-cluster's
 * {@code BrokerRecord} carries listener names and endpoints).
 */
package io.sluice.codec.endpoint;
