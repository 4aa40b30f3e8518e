package io.sluice.broker;

import io.sluice.broker.api.AlterClientQuotasHandler;
import io.sluice.broker.api.AlterConfigsHandler;
import io.sluice.broker.api.AlterPartitionHandler;
import io.sluice.broker.api.AlterPartitionReassignmentsHandler;
import io.sluice.broker.api.ApiVersionsHandler;
import io.sluice.broker.api.ControlledShutdownHandler;
import io.sluice.broker.api.CreatePartitionsHandler;
import io.sluice.broker.api.CreateTopicsHandler;
import io.sluice.broker.api.DeleteRecordsHandler;
import io.sluice.broker.api.DeleteTopicsHandler;
import io.sluice.broker.api.DescribeClientQuotasHandler;
import io.sluice.broker.api.DescribeClusterHandler;
import io.sluice.broker.api.DescribeConfigsHandler;
import io.sluice.broker.api.DescribeLogDirsHandler;
import io.sluice.broker.api.DescribeProducersHandler;
import io.sluice.broker.api.DescribeTopicPartitionsHandler;
import io.sluice.broker.api.ElectLeadersHandler;
import io.sluice.broker.api.IncrementalAlterConfigsHandler;
import io.sluice.broker.api.ListOffsetsHandler;
import io.sluice.broker.api.ListPartitionReassignmentsHandler;
import io.sluice.broker.api.MetadataHandler;
import io.sluice.broker.api.OffsetForLeaderEpochHandler;
import io.sluice.broker.auth.AuthorizedOperations;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.cluster.ControllerForwarder;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.DynamicBrokerConfig;
import io.sluice.broker.config.DynamicConfigSchema;
import io.sluice.broker.fetch.FetchHandler;
import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.metrics.BrokerMetrics;
import io.sluice.broker.move.MoveTargets;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.produce.InitProducerIdHandler;
import io.sluice.broker.produce.ProduceHandler;
import io.sluice.broker.produce.ProducerIdManager;
import io.sluice.broker.produce.ValidatorPool;
import io.sluice.broker.quota.ClientQuotas;
import io.sluice.broker.reassign.ReassignmentRoomCheck;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.broker.security.acl.ClusterGate;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.log.LogManager;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The Kafka APIs a broker answers on its listeners, each with the versions it supports and the handler that answers
 * it (the group, SASL, ACL and SCRAM APIs register elsewhere, with their own parts): the components the handlers are
 * built from, gathered at start.
 *
 * <p>Immutable; {@link #registerOn} runs once, while the broker starts.
 */
record KafkaApis(
        BrokerConfig config,
        ClusterView cluster,
        Supplier<ClusterNode> node,
        TopicManager topics,
        LogManager logs,
        DynamicBrokerConfig dynamicConfig,
        ControllerForwarder forwarder,
        ControllerChannel controllerChannel,
        AuthorizedOperations authorized,
        ScheduledThreadPoolExecutor timer,
        ValidatorPool validators,
        BrokerMetrics metrics,
        ReplicaManager replicas,
        ClientQuotas quotas,
        Supplier<Map<String, Map<String, String>>> quotaConfigs,
        ReassignmentRoomCheck roomCheck,
        MoveTargets moveTargets,
        ProducerIdManager producerIds) {

    /** Registers every API of this group on {@code registry}. */
    void registerOn(ApiRegistry registry) {
        registry.register(ApiKeys.API_VERSIONS, 0, 4, new ApiVersionsHandler(registry))
                .register(
                        ApiKeys.METADATA,
                        0,
                        12,
                        new MetadataHandler(cluster, topics, config.autoCreateTopicsEnable(), forwarder, authorized))
                .register(
                        ApiKeys.CREATE_TOPICS, 0, 7, new CreateTopicsHandler(topics, config.defaultReplicationFactor()))
                .register(ApiKeys.DELETE_TOPICS, 0, 6, new DeleteTopicsHandler(topics))
                .register(ApiKeys.CREATE_PARTITIONS, 0, 3, new CreatePartitionsHandler(node, topics))
                .register(ApiKeys.DELETE_RECORDS, 0, 2, new DeleteRecordsHandler(topics, logs, node, timer))
                .register(ApiKeys.DESCRIBE_PRODUCERS, 0, 0, new DescribeProducersHandler(topics))
                .register(ApiKeys.DESCRIBE_CLUSTER, 0, 1, new DescribeClusterHandler(cluster, authorized))
                .register(ApiKeys.DESCRIBE_CONFIGS, 0, 4, new DescribeConfigsHandler(dynamicConfig, topics))
                .register(
                        ApiKeys.INCREMENTAL_ALTER_CONFIGS,
                        0,
                        1,
                        IncrementalAlterConfigsHandler.of(
                                node, new DynamicConfigSchema(dynamicConfig), config.brokerId(), controllerChannel))
                .register(
                        ApiKeys.ALTER_CONFIGS,
                        0,
                        2,
                        AlterConfigsHandler.of(
                                node, new DynamicConfigSchema(dynamicConfig), config.brokerId(), controllerChannel))
                .register(ApiKeys.LIST_OFFSETS, 1, 8, new ListOffsetsHandler(topics))
                .register(
                        ApiKeys.PRODUCE,
                        3,
                        11,
                        new ProduceHandler(topics, validators, System::currentTimeMillis, timer, metrics.topics()))
                .register(ApiKeys.FETCH, 4, 16, new FetchHandler(topics, replicas, timer, quotas::fetchMaxBytes))
                .register(
                        ApiKeys.ALTER_CLIENT_QUOTAS,
                        0,
                        1,
                        AlterClientQuotasHandler.of(
                                node, new DynamicConfigSchema(dynamicConfig), config.brokerId(), controllerChannel))
                .register(ApiKeys.DESCRIBE_CLIENT_QUOTAS, 0, 1, new DescribeClientQuotasHandler(quotaConfigs))
                .register(ApiKeys.OFFSET_FOR_LEADER_EPOCH, 0, 4, new OffsetForLeaderEpochHandler(topics))
                .register(
                        ApiKeys.ALTER_PARTITION,
                        2,
                        3,
                        ClusterGate.require(AclOperation.CLUSTER_ACTION, new AlterPartitionHandler(node)))
                .register(
                        ApiKeys.CONTROLLED_SHUTDOWN,
                        0,
                        3,
                        ClusterGate.require(AclOperation.CLUSTER_ACTION, new ControlledShutdownHandler(node)))
                .register(
                        ApiKeys.ELECT_LEADERS,
                        0,
                        2,
                        ClusterGate.require(AclOperation.ALTER, new ElectLeadersHandler(node, topics)))
                .register(
                        ApiKeys.ALTER_PARTITION_REASSIGNMENTS,
                        0,
                        0,
                        ClusterGate.require(
                                AclOperation.ALTER, new AlterPartitionReassignmentsHandler(node, roomCheck)))
                .register(
                        ApiKeys.LIST_PARTITION_REASSIGNMENTS,
                        0,
                        0,
                        ClusterGate.require(AclOperation.DESCRIBE, new ListPartitionReassignmentsHandler(node)))
                .register(
                        ApiKeys.DESCRIBE_LOG_DIRS,
                        0,
                        4,
                        ClusterGate.require(
                                AclOperation.DESCRIBE, new DescribeLogDirsHandler(logs, topics, moveTargets)))
                .register(
                        ApiKeys.DESCRIBE_TOPIC_PARTITIONS,
                        0,
                        0,
                        new DescribeTopicPartitionsHandler(cluster, topics, authorized))
                .register(ApiKeys.INIT_PRODUCER_ID, 0, 5, new InitProducerIdHandler(producerIds));
    }
}
