/**
 * Node addresses as bytes ({@link io.sluice.codec.endpoint.Endpoint}: cached hash, byte-wise equality; strings only
 * when parsing configuration or logging) and the K-ring membership view
 * ({@link io.sluice.codec.endpoint.MembershipView}: O(log N) insert/remove, K observers and subjects per node,
 * configuration id). Maps keyed by endpoint travel as two parallel lists (as sluice-cluster's
 * {@code BrokerRecord} carries listener names and endpoints).
 */
package io.sluice.codec.endpoint;
