package io.sluice.broker.api;

import io.sluice.broker.auth.AuthorizedOperations;
import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeCluster: the live brokers, the controller, the cluster id and, when asked, the cluster
 * operations the client may perform. Only broker endpoints are served (endpoint type 1); a request
 * for controller endpoints gets UNSUPPORTED_ENDPOINT_TYPE.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeClusterHandler implements ApiHandler<DescribeClusterRequestData> {
    private static final byte BROKER_ENDPOINTS = 1;
    private final ClusterView cluster;
    private final AuthorizedOperations authorized;

    public DescribeClusterHandler(ClusterView cluster, AuthorizedOperations authorized) {
        this.cluster = cluster;
        this.authorized = authorized;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeClusterRequestData request) {
        DescribeClusterResponseData response = new DescribeClusterResponseData()
                .setClusterId(cluster.clusterId())
                .setControllerId(cluster.controllerId())
                .setClusterAuthorizedOperations(
                        request.includeClusterAuthorizedOperations()
                                ? authorized.onCluster(context)
                                : AuthorizedOperations.OMITTED);
        if (context.apiVersion() >= 1 && request.endpointType() != BROKER_ENDPOINTS) {
            response.setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                    .setErrorMessage("endpoint type " + request.endpointType() + " is not served; only brokers (1)");
            return CompletableFuture.completedFuture(response);
        }
        response.setEndpointType(BROKER_ENDPOINTS);
        for (BrokerNode node : cluster.liveBrokers(context.listenerName())) {
            response.brokers()
                    .add(new DescribeClusterResponseData.DescribeClusterBroker()
                            .setBrokerId(node.id())
                            .setHost(node.host())
                            .setPort(node.port())
                            .setRack(node.rack()));
        }
        return CompletableFuture.completedFuture(response);
    }
}
