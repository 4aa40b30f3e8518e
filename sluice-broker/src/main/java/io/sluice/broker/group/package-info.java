/**
 * The classic consumer-group coordinator (Kafka's JoinGroup/SyncGroup/Heartbeat/LeaveGroup protocol with durable
 * committed offsets), answered by {@link io.sluice.broker.group.GroupCoordinator}.
 *
 * <ul>
 *   <li>{@code GroupCoordinator}: the API the request dispatcher calls, lifecycle (load, retention sweep, close),
 *       and the admin APIs (ListGroups, DescribeGroups, DeleteGroups).</li>
 *   <li>{@code MembershipProtocol}: Kafka's state machine (Empty, PreparingRebalance, CompletingRebalance,
 *       Stable, Dead) with the initial rebalance delay, rebalance and session timeouts, MEMBER_ID_REQUIRED,
 *       static membership and pending syncs. Cooperative rebalancing needs nothing here: the clients drive it as
 *       consecutive eager generations.</li>
 *   <li>{@code OffsetOperations}: OffsetCommit/OffsetFetch/OffsetDelete with Kafka's generation and member checks,
 *       and offset retention for empty groups.</li>
 *   <li>{@code store}: the durable, append-only group log, partitioned like {@code __consumer_offsets}.</li>
 * </ul>
 * Every group is guarded by its own lock; nothing holds two group locks at once, and the store's partition monitors
 * are only taken inside a group lock, so there is no lock-order cycle.
 */
package io.sluice.broker.group;
