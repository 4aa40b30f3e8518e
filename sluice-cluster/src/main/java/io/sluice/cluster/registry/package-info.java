/**
 * Broker membership: one ephemeral znode per live broker holding its id, rack and endpoint bytes
 * ({@link io.sluice.cluster.registry.BrokerRegistration}); a second broker with a live id is refused with
 * {@link io.sluice.cluster.registry.DuplicateBrokerIdException}; registrations come back after a session loss.
 */
package io.sluice.cluster.registry;
