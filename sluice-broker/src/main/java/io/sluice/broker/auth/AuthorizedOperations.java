package io.sluice.broker.auth;

import io.sluice.broker.network.RequestContext;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.utils.Utils;

/**
 * What the principal of a request may do on the cluster or on a topic, as the bit field Kafka reports when a request
 * asks for it (KIP-430: Metadata, DescribeCluster, DescribeTopicPartitions): bit {@code n} is set when the operation
 * whose {@link AclOperation#code()} is {@code n} is allowed. The sets are Kafka's operations per resource type. With no
 * authorizer every one of them is allowed, as in Kafka; the ACL authorizer plugs in here, and only here, when security
 * lands, which is why the methods take the request.
 *
 * <p>Immutable; thread-safe.
 */
public final class AuthorizedOperations {
    /** What Kafka sends when the request did not ask for authorized operations (the schemas' default). */
    public static final int OMITTED = Integer.MIN_VALUE;

    private static final Set<AclOperation> TOPIC_OPERATIONS = EnumSet.of(AclOperation.READ, AclOperation.WRITE,
            AclOperation.CREATE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE,
            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
    private static final Set<AclOperation> CLUSTER_OPERATIONS = EnumSet.of(AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE);

    private final int topicOperations = bitField(TOPIC_OPERATIONS);
    private final int clusterOperations = bitField(CLUSTER_OPERATIONS);

    /** No authorizer: every operation is allowed to everyone. */
    public AuthorizedOperations() {
    }

    /**
     * The cluster operations the request's principal may perform; as in Kafka, 0 when it may not describe the cluster.
     */
    public int onCluster(RequestContext request) {
        return clusterOperations;
    }

    /** The operations the request's principal may perform on {@code topic}. */
    public int onTopic(RequestContext request, String topic) {
        return topicOperations;
    }

    private static int bitField(Set<AclOperation> operations) {
        Set<Byte> codes = new HashSet<>();
        for (AclOperation operation : operations) {
            codes.add(operation.code());
        }
        return Utils.to32BitField(codes);
    }
}
