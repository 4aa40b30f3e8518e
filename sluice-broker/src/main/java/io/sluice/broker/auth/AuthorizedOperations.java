package io.sluice.broker.auth;

import io.sluice.broker.network.RequestContext;
import io.sluice.broker.security.acl.AclAuthorizer;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;

/**
 * What the principal of a request may do on the cluster or on a topic, as the bit field Kafka reports when a request
 * asks for it (KIP-430: Metadata, DescribeCluster, DescribeTopicPartitions): bit {@code n} is set when the operation
 * whose {@link AclOperation#code()} is {@code n} is allowed. The sets are Kafka's operations per resource type, each
 * asked of the request's authorizer; with no authorizer every one of them is allowed, as in Kafka.
 *
 * <p>Immutable; thread-safe.
 */
public final class AuthorizedOperations {
    /** What Kafka sends when the request did not ask for authorized operations (the schemas' default). */
    public static final int OMITTED = Integer.MIN_VALUE;

    private static final Set<AclOperation> TOPIC_OPERATIONS = EnumSet.of(
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE,
            AclOperation.DELETE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS);
    private static final Set<AclOperation> CLUSTER_OPERATIONS = EnumSet.of(
            AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE);

    private final int topicOperations = bitField(TOPIC_OPERATIONS);
    private final int clusterOperations = bitField(CLUSTER_OPERATIONS);

    /** The operations each request's authorizer allows (all of them when there is none). */
    public AuthorizedOperations() {}

    /**
     * The cluster operations the request's principal may perform; as in Kafka, 0 when it may not describe the cluster.
     */
    public int onCluster(RequestContext request) {
        if (!request.authorizer().enabled()) {
            return clusterOperations;
        }
        if (!request.authorizeCluster(AclOperation.DESCRIBE)) {
            return 0;
        }
        return allowed(request, CLUSTER_OPERATIONS, ResourceType.CLUSTER, AclAuthorizer.CLUSTER_NAME);
    }

    /** The operations the request's principal may perform on {@code topic}. */
    public int onTopic(RequestContext request, String topic) {
        return request.authorizer().enabled()
                ? allowed(request, TOPIC_OPERATIONS, ResourceType.TOPIC, topic)
                : topicOperations;
    }

    private int allowed(RequestContext request, Set<AclOperation> operations, ResourceType type, String name) {
        Set<Byte> codes = new HashSet<>();
        for (AclOperation operation : operations) {
            if (request.authorize(operation, type, name)) {
                codes.add(operation.code());
            }
        }
        return Utils.to32BitField(codes);
    }

    private static int bitField(Set<AclOperation> operations) {
        Set<Byte> codes = new HashSet<>();
        for (AclOperation operation : operations) {
            codes.add(operation.code());
        }
        return Utils.to32BitField(codes);
    }
}
