package io.sluice.broker.security.acl;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.cluster.node.ClusterNode;
import java.util.function.Supplier;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Registers CreateAcls, DescribeAcls and DeleteAcls with every version Kafka 3.9 answers (0 to 3).
 *
 * <p>Stateless.
 */
public final class AclApis {
    private AclApis() {}

    public static void register(
            ApiRegistry registry, AclAuthorizer authorizer, Supplier<ClusterNode> node, ControllerChannel controller) {
        registry.register(ApiKeys.CREATE_ACLS, 0, 3, new CreateAclsHandler(authorizer, node, controller))
                .register(ApiKeys.DESCRIBE_ACLS, 0, 3, new DescribeAclsHandler(authorizer))
                .register(ApiKeys.DELETE_ACLS, 0, 3, new DeleteAclsHandler(authorizer, node, controller));
    }
}
