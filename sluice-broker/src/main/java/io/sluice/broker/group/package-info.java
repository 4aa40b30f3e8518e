/**
 * The classic consumer-group coordinator (Kafka's JoinGroup/SyncGroup/Heartbeat/LeaveGroup protocol with durable
 * committed offsets), answered by {@link io.sluice.broker.group.GroupCoordinator}.
 *
 * <ul>
 *   <li>{@code GroupCoordinator}: the API the request dispatcher calls, lifecycle (retention sweep, close).</li>
 *   <li>{@code GroupAdmin}: the admin APIs (ListGroups, DescribeGroups, DeleteGroups).</li>
 *   <li>{@code GroupLoader}: loads the groups of a {@code __consumer_offsets} partition when this broker starts
 *       leading it and unloads them when it stops.</li>
 *   <li>{@code MembershipProtocol}: JoinGroup ({@code JoinGroupProtocol}: MEMBER_ID_REQUIRED, static
 *       membership), SyncGroup ({@code SyncGroupProtocol}: pending syncs, the stored assignment), Heartbeat and
 *       LeaveGroup over Kafka's state machine ({@code RebalanceStateMachine}: Empty, PreparingRebalance,
 *       CompletingRebalance, Stable, Dead, with the initial rebalance delay, rebalance and session timeouts).
 *       Cooperative rebalancing needs nothing here: the clients drive it as consecutive eager generations.</li>
 *   <li>{@code OffsetOperations}: OffsetCommit/OffsetFetch/OffsetDelete with Kafka's generation and member checks,
 *       and offset retention for empty groups.</li>
 *   <li>{@code store}: group records on the replicated {@code __consumer_offsets} partitions.</li>
 * </ul>
 * Every group is guarded by its own lock; nothing holds two group locks at once. A thread holding a group lock may
 * append to a partition (taking its log lock and its monitor); the outcome of a write that needs the group lock
 * again is therefore never handled on the thread that completed it, which may hold a partition's monitor, but on
 * the coordinator's scheduler, so there is no lock-order cycle.
 */
package io.sluice.broker.group;
