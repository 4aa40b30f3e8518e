package io.sluice.broker.security;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.interbroker.ControllerWrites;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.cluster.state.ScramCredentials;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * AlterUserScramCredentials v0 ({@code kafka-configs.sh --entity-type users --alter --add-config
 * 'SCRAM-SHA-256=[...]'}, {@code Admin.alterUserScramCredentials}) with Kafka 3.9's rules: Alter on the cluster
 * (CLUSTER_AUTHORIZATION_FAILED for every user otherwise); per user, an empty name or a credential with an empty or
 * oversized salt or salted password is UNACCEPTABLE_CREDENTIAL, an unknown mechanism UNSUPPORTED_SASL_MECHANISM,
 * fewer than 4096 or more than 16384 iterations UNACCEPTABLE_CREDENTIAL, the same user and mechanism twice in the
 * request DUPLICATE_RESOURCE, and deleting a credential that does not exist RESOURCE_NOT_FOUND; a user with any error
 * changes nothing. The rest is decided on the controller against the stored credentials ({@link ControllerWrites})
 * and stored as salt, StoredKey, ServerKey and iterations, never the salted password. One result per user, errors
 * first, as Kafka orders them.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class AlterUserScramCredentialsHandler implements ApiHandler<AlterUserScramCredentialsRequestData> {
    private final ControllerWrites writes;

    public AlterUserScramCredentialsHandler(Supplier<ClusterNode> node, ControllerChannel controller) {
        this.writes = new ControllerWrites(node, controller);
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, AlterUserScramCredentialsRequestData request) {
        if (!context.authorizeCluster(AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(failAll(
                    request, Errors.CLUSTER_AUTHORIZATION_FAILED, Errors.CLUSTER_AUTHORIZATION_FAILED.message()));
        }
        short version = context.apiVersion();
        return writes.<AlterUserScramCredentialsResponseData>write(
                        n -> n.<AlterUserScramCredentialsResponseData>alterScramCredentials(
                                (current, set, delete) -> decide(request, current, set, delete)),
                        ApiKeys.ALTER_USER_SCRAM_CREDENTIALS,
                        version,
                        request,
                        readable -> new AlterUserScramCredentialsResponseData(readable, version),
                        failure -> failAll(request, Errors.forException(failure), failure.getMessage()))
                .thenApply(response -> response);
    }

    /** Runs on the controller thread: fills {@code set} and {@code delete} with the changes of the users without error. */
    static AlterUserScramCredentialsResponseData decide(
            AlterUserScramCredentialsRequestData request,
            ScramCredentials current,
            List<ScramCredentialEntry> set,
            List<ScramCredentialEntry.Key> delete) {
        Map<String, Result> illegal = new LinkedHashMap<>();
        for (ScramCredentialDeletion d : request.deletions()) {
            Result error = checkName(d.name(), d.mechanism());
            if (error != null) {
                illegal.put(d.name(), error);
            }
        }
        for (ScramCredentialUpsertion u : request.upsertions()) {
            Result error = checkUpsertion(u);
            if (error != null) {
                illegal.put(u.name(), error);
            }
        }
        AlterUserScramCredentialsResponseData response = new AlterUserScramCredentialsResponseData();
        illegal.forEach((user, r) -> response.results().add(r.of(user)));
        Set<String> failed = new HashSet<>(illegal.keySet());

        Set<ScramCredentialEntry.Key> seen = new HashSet<>();
        Set<String> duplicated = new LinkedHashSet<>();
        for (ScramCredentialEntry.Key k : keys(request, failed)) {
            if (!seen.add(k)) {
                duplicated.add(k.user());
            }
        }
        for (String user : duplicated) {
            response.results()
                    .add(new Result(
                                    Errors.DUPLICATE_RESOURCE,
                                    "A user credential cannot be altered twice in the same request")
                            .of(user));
        }
        failed.addAll(duplicated);

        Set<String> users = new LinkedHashSet<>();
        request.upsertions().forEach(u -> users.add(u.name()));
        request.deletions().forEach(d -> users.add(d.name()));
        users.removeAll(failed);
        List<String> succeeded = new ArrayList<>();
        for (String user : users) {
            List<ScramCredentialEntry.Key> deletes = new ArrayList<>();
            boolean missing = false;
            for (ScramCredentialDeletion d : request.deletions()) {
                if (d.name().equals(user)) {
                    missing |= current.get(user, d.mechanism()) == null;
                    deletes.add(new ScramCredentialEntry.Key(user, d.mechanism()));
                }
            }
            if (missing) {
                response.results()
                        .add(new Result(
                                        Errors.RESOURCE_NOT_FOUND,
                                        "Attempt to delete a user credential that does not exist")
                                .of(user));
                continue;
            }
            delete.addAll(deletes);
            for (ScramCredentialUpsertion u : request.upsertions()) {
                if (u.name().equals(user)) {
                    set.add(entry(u));
                }
            }
            succeeded.add(user);
        }
        succeeded.forEach(user -> response.results().add(new Result(Errors.NONE, null).of(user)));
        return response;
    }

    private static List<ScramCredentialEntry.Key> keys(AlterUserScramCredentialsRequestData request, Set<String> skip) {
        List<ScramCredentialEntry.Key> keys = new ArrayList<>();
        for (ScramCredentialUpsertion u : request.upsertions()) {
            if (!skip.contains(u.name())) {
                keys.add(new ScramCredentialEntry.Key(u.name(), u.mechanism()));
            }
        }
        for (ScramCredentialDeletion d : request.deletions()) {
            if (!skip.contains(d.name())) {
                keys.add(new ScramCredentialEntry.Key(d.name(), d.mechanism()));
            }
        }
        return keys;
    }

    private static ScramCredentialEntry entry(ScramCredentialUpsertion u) {
        ScramMechanism mechanism = ScramMechanism.forKafkaType(u.mechanism());
        ScramCredential c = mechanism.credentialOfSaltedPassword(u.salt(), u.saltedPassword(), u.iterations());
        return new ScramCredentialEntry(
                new ScramCredentialEntry.Key(u.name(), u.mechanism()),
                c.salt(),
                c.storedKey(),
                c.serverKey(),
                c.iterations());
    }

    private static Result checkName(String name, byte mechanism) {
        if (name == null || name.isEmpty()) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        }
        if (ScramMechanism.forKafkaType(mechanism) == null) {
            return new Result(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        }
        return null;
    }

    private static Result checkUpsertion(ScramCredentialUpsertion u) {
        Result error = checkName(u.name(), u.mechanism());
        if (error != null) {
            return error;
        }
        if (u.iterations() < ScramMechanism.MIN_ITERATIONS) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        }
        if (u.iterations() > ScramMechanism.MAX_ITERATIONS) {
            return new Result(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        }
        if (!usable(u.salt()) || !usable(u.saltedPassword())) {
            return new Result(
                    Errors.UNACCEPTABLE_CREDENTIAL,
                    "Salt and salted password must each have 1 to " + ScramCredentialEntry.MAX_BYTES + " bytes");
        }
        return null;
    }

    private static boolean usable(byte[] bytes) {
        return bytes != null && bytes.length > 0 && bytes.length <= ScramCredentialEntry.MAX_BYTES;
    }

    private static AlterUserScramCredentialsResponseData failAll(
            AlterUserScramCredentialsRequestData request, Errors error, String message) {
        Set<String> users = new LinkedHashSet<>();
        request.upsertions().forEach(u -> users.add(u.name()));
        request.deletions().forEach(d -> users.add(d.name()));
        AlterUserScramCredentialsResponseData response = new AlterUserScramCredentialsResponseData();
        users.forEach(user -> response.results().add(new Result(error, message).of(user)));
        return response;
    }

    private record Result(Errors error, String message) {
        AlterUserScramCredentialsResult of(String user) {
            return new AlterUserScramCredentialsResult()
                    .setUser(user)
                    .setErrorCode(error.code())
                    .setErrorMessage(message);
        }
    }
}
