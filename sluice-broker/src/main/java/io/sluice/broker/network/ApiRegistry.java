package io.sluice.broker.network;

import io.sluice.broker.security.acl.AclAuthorizer;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * The APIs this broker implements, with the exact version range of each: ApiVersions advertises
 * this table and nothing else, and requests outside it are refused.
 *
 * <p>Filled once at start-up, then read-only: safe to share between handler threads.
 */
public final class ApiRegistry {
    /** One implemented API and its version range. */
    public record Registration(
            ApiKeys key, short minVersion, short maxVersion, ApiHandler<? extends ApiMessage> handler) {
        public boolean supports(short version) {
            return version >= minVersion && version <= maxVersion;
        }
    }

    private final Map<ApiKeys, Registration> registrations = new EnumMap<>(ApiKeys.class);
    private final Map<Short, PrivateRequestHandler> privateHandlers = new HashMap<>();
    private RequestObserver observer = RequestObserver.NONE;
    private RequestThrottler throttler = RequestThrottler.NONE;
    private AclAuthorizer authorizer = AclAuthorizer.disabled();

    /** The authorizer every request's context carries (none, allowing everything, unless set). */
    public ApiRegistry authorizeWith(AclAuthorizer authorizer) {
        this.authorizer = authorizer;
        return this;
    }

    public AclAuthorizer authorizer() {
        return authorizer;
    }

    /** Whether {@code principal} may use the private (broker-to-broker) APIs: ClusterAction on the cluster, as Kafka. */
    public boolean mayUsePrivate(KafkaPrincipal principal, String host) {
        return authorizer.authorize(
                principal.toString(),
                host,
                AclOperation.CLUSTER_ACTION,
                ResourceType.CLUSTER,
                AclAuthorizer.CLUSTER_NAME);
    }

    public <R extends ApiMessage> ApiRegistry register(
            ApiKeys key, int minVersion, int maxVersion, ApiHandler<R> handler) {
        if (minVersion < key.oldestVersion() || maxVersion > key.latestVersion(true) || minVersion > maxVersion) {
            throw new IllegalArgumentException("version range " + minVersion + "-" + maxVersion + " of " + key
                    + " is outside what the protocol defines (" + key.oldestVersion() + "-" + key.latestVersion(true)
                    + ")");
        }
        registrations.put(key, new Registration(key, (short) minVersion, (short) maxVersion, handler));
        return this;
    }

    /** Registers a Sluice-private API (see {@link PrivateRequestHandler}); its key must not be one of Kafka's. */
    public ApiRegistry registerPrivate(short apiKeyId, PrivateRequestHandler handler) {
        if (ApiKeys.hasId(apiKeyId)) {
            throw new IllegalArgumentException(
                    "private API key " + apiKeyId + " is Kafka's " + ApiKeys.forId(apiKeyId));
        }
        privateHandlers.put(apiKeyId, handler);
        return this;
    }

    /** Who is told about every answered request (the broker's request metrics); none by default. */
    public ApiRegistry observeWith(RequestObserver requestObserver) {
        this.observer = requestObserver;
        return this;
    }

    public RequestObserver observer() {
        return observer;
    }

    /** Who accounts requests against client quotas and throttles connections; nobody by default. */
    public ApiRegistry throttleWith(RequestThrottler requestThrottler) {
        this.throttler = requestThrottler;
        return this;
    }

    public RequestThrottler throttler() {
        return throttler;
    }

    /** The private handler of {@code apiKeyId}, or null. */
    public PrivateRequestHandler findPrivate(short apiKeyId) {
        return privateHandlers.isEmpty() ? null : privateHandlers.get(apiKeyId);
    }

    public Registration find(ApiKeys key) {
        return registrations.get(key);
    }

    public ApiVersionCollection advertisedVersions() {
        ApiVersionCollection versions = new ApiVersionCollection(registrations.size());
        for (Registration r : registrations.values()) {
            versions.add(new ApiVersion()
                    .setApiKey(r.key().id)
                    .setMinVersion(r.minVersion())
                    .setMaxVersion(r.maxVersion()));
        }
        return versions;
    }
}
