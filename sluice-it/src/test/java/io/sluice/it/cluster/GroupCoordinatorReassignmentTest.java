package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * A group's {@code __consumer_offsets} partition reassigned away from the broker coordinating the group, brokers in
 * their own JVMs: the coordinator is paused (SIGSTOP) while the controller moves the partition's leadership to the two
 * other brokers and drops its replica, so when it runs again it sees only the state without its replica. It must stop
 * answering for the group (NOT_COORDINATOR) rather than go on serving it beside the new coordinator, which serves the
 * group's committed offsets intact.
 *
 * <p>Not thread-safe; JUnit runs it on one thread.
 */
class GroupCoordinatorReassignmentTest extends ClusterTestBase {
    private static final String TOPIC = "ledger";
    private static final int OFFSETS_PARTITIONS = 6;
    /** Long enough that the paused coordinator stays registered while the reassignment completes without it. */
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(30);
    /** Bound on the reassignment while the coordinator is paused: well inside its session. */
    private static final Duration REASSIGNED_WITHIN = Duration.ofSeconds(20);

    private static final long COMMITTED = 42;

    @Override
    Duration sessionTimeout() {
        return SESSION_TIMEOUT;
    }

    @Override
    List<String> brokerOverrides() {
        List<String> settings = new ArrayList<>(replicationSettings(6000));
        settings.add("offsets.topic.num.partitions=" + OFFSETS_PARTITIONS);
        return settings;
    }

    @Test
    void shouldStopCoordinatingAGroupWhosePartitionWasReassignedAwayWhileItWasPaused() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            ClusterClients.createTopic(admin, TOPIC, 1);
            // the first group request creates __consumer_offsets
            admin.listConsumerGroupOffsets("creates-the-offsets-topic")
                    .partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            List<TopicPartitionInfo> offsetsPartitions = Poll.until(
                            "every __consumer_offsets partition has three in-sync replicas",
                            SETTLE,
                            () -> describeOffsetsTopic(admin),
                            d -> d.partitions().size() == OFFSETS_PARTITIONS
                                    && d.partitions().stream()
                                            .allMatch(p -> p.leader() != null
                                                    && p.isr().size() == BROKERS))
                    .partitions();
            int controller = admin.describeCluster()
                    .controller()
                    .get(60, TimeUnit.SECONDS)
                    .id();
            // A paused controller would stall the reassignment: the group's coordinator must be another broker.
            Placement placed = groupNotLedBy(controller, offsetsPartitions);
            String group = placed.group();
            int partition = placed.partition();
            int coordinator = offsetsPartitions.get(partition).leader().id();
            TopicPartition committedPartition = new TopicPartition(TOPIC, 0);
            admin.alterConsumerGroupOffsets(group, Map.of(committedPartition, new OffsetAndMetadata(COMMITTED)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            SluiceBrokerProcess paused = cluster.broker(coordinator);
            assertEquals(
                    Errors.NONE,
                    OneRequest.offsetFetchError(paused.bootstrap(), group),
                    "broker " + coordinator + " coordinates " + group + " before the reassignment");

            List<Integer> others = new ArrayList<>(cluster.brokerIds());
            others.remove(Integer.valueOf(coordinator));
            TopicPartition groupPartition = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, partition);
            paused.pause();
            try {
                admin.alterPartitionReassignments(
                                Map.of(groupPartition, Optional.of(new NewPartitionReassignment(others))))
                        .all()
                        .get(60, TimeUnit.SECONDS);
                // asked of a running broker: the admin client might pick the paused one and wait out its timeout
                String running = cluster.broker(others.get(0)).bootstrap();
                Poll.until(
                        groupPartition + " is reassigned to " + others + " while broker " + coordinator + " is paused",
                        REASSIGNED_WITHIN,
                        () -> new HashSet<>(OneRequest.metadata(running, Topic.GROUP_METADATA_TOPIC_NAME)
                                .partitions()
                                .get(groupPartition.partition())
                                .replicaNodes()),
                        new HashSet<>(others)::equals);
            } finally {
                paused.resume();
            }

            Poll.until(
                    "broker " + coordinator + " no longer coordinates " + group + " once it runs again",
                    SETTLE,
                    () -> OneRequest.offsetFetchError(paused.bootstrap(), group),
                    Errors.NOT_COORDINATOR::equals);
            Map<TopicPartition, OffsetAndMetadata> served = Poll.until(
                    "the new coordinator serves the committed offset of " + group,
                    SETTLE,
                    () -> admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get(60, TimeUnit.SECONDS),
                    offsets -> offsets.containsKey(committedPartition));
            assertEquals(COMMITTED, served.get(committedPartition).offset(), "the committed offset intact");
        }
    }

    /** A group and its {@code __consumer_offsets} partition. */
    private record Placement(String group, int partition) {}

    /** The first of the groups {@code ledger-readers-<i>} whose partition is led by a broker other than {@code id}. */
    private static Placement groupNotLedBy(int id, List<TopicPartitionInfo> offsetsPartitions) {
        for (int i = 0; ; i++) {
            String group = "ledger-readers-" + i;
            int partition = Utils.abs(group.hashCode()) % OFFSETS_PARTITIONS;
            if (offsetsPartitions.get(partition).leader().id() != id) {
                return new Placement(group, partition);
            }
        }
    }

    private static TopicDescription describeOffsetsTopic(Admin admin) throws Exception {
        return admin.describeTopics(List.of(Topic.GROUP_METADATA_TOPIC_NAME))
                .allTopicNames()
                .get(60, TimeUnit.SECONDS)
                .get(Topic.GROUP_METADATA_TOPIC_NAME);
    }
}
