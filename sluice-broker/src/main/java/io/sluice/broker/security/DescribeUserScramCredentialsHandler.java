package io.sluice.broker.security;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.cluster.state.ScramCredentials;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData.UserName;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeUserScramCredentials v0 ({@code kafka-configs.sh --entity-type users --describe}) from the credentials of
 * the cluster state this broker applied, with Kafka 3.9's rules: Describe on the cluster (a top-level
 * CLUSTER_AUTHORIZATION_FAILED otherwise); no user names lists every user with a credential, sorted; a named user
 * without one, or an empty name, is RESOURCE_NOT_FOUND, a name given twice DUPLICATE_RESOURCE; each result lists the
 * mechanisms and iterations, never a salt or key.
 *
 * <p>Thread-safe (reads an immutable state).
 */
public final class DescribeUserScramCredentialsHandler implements ApiHandler<DescribeUserScramCredentialsRequestData> {
    private final Supplier<ClusterState> state;

    public DescribeUserScramCredentialsHandler(Supplier<ClusterState> state) {
        this.state = state;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(
            RequestContext context, DescribeUserScramCredentialsRequestData request) {
        DescribeUserScramCredentialsResponseData response = new DescribeUserScramCredentialsResponseData();
        if (!context.authorizeCluster(AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.CLUSTER_AUTHORIZATION_FAILED.message()));
        }
        ScramCredentials credentials = state.get().scramCredentials();
        List<UserName> names = request.users();
        if (names == null || names.isEmpty()) {
            Map<String, DescribeUserScramCredentialsResult> byUser = new TreeMap<>();
            for (ScramCredentialEntry e : credentials.all()) {
                byUser.computeIfAbsent(e.user(), user -> new DescribeUserScramCredentialsResult().setUser(user))
                        .credentialInfos()
                        .add(info(e));
            }
            response.results().addAll(byUser.values());
            return CompletableFuture.completedFuture(response);
        }
        Map<String, Integer> counts = new HashMap<>();
        names.forEach(n -> counts.merge(n.name(), 1, Integer::sum));
        for (String user : distinct(names)) {
            DescribeUserScramCredentialsResult result = new DescribeUserScramCredentialsResult().setUser(user);
            if (!user.isEmpty() && counts.get(user) > 1) {
                result.setErrorCode(Errors.DUPLICATE_RESOURCE.code())
                        .setErrorMessage("Cannot describe SCRAM "
                                + "credentials for the same user twice in a single request: " + user);
            } else {
                for (ScramMechanism m : ScramMechanism.values()) {
                    ScramCredentialEntry e = credentials.get(user, m.kafkaType());
                    if (e != null) {
                        result.credentialInfos().add(info(e));
                    }
                }
                if (result.credentialInfos().isEmpty()) {
                    result.setErrorCode(Errors.RESOURCE_NOT_FOUND.code())
                            .setErrorMessage("Attempt to describe a user credential that does not exist: " + user);
                }
            }
            response.results().add(result);
        }
        return CompletableFuture.completedFuture(response);
    }

    private static LinkedHashSet<String> distinct(List<UserName> names) {
        LinkedHashSet<String> users = new LinkedHashSet<>();
        names.forEach(n -> users.add(n.name()));
        return users;
    }

    private static CredentialInfo info(ScramCredentialEntry e) {
        return new CredentialInfo().setMechanism(e.mechanism()).setIterations(e.iterations());
    }
}
