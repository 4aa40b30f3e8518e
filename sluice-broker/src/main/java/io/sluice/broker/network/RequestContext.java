package io.sluice.broker.network;

import io.sluice.broker.security.acl.AclAuthorizer;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * Who sent a request and how: its parsed header, the connection and listener it came on, the authenticated
 * principal ({@code User:<name>} after SASL or from a client certificate, {@code User:ANONYMOUS} otherwise), and the
 * authorizer that decides what that principal may do ({@link #authorize}).
 *
 * <p>Immutable.
 */
public record RequestContext(
        RequestHeader header,
        String clientHost,
        String connectionId,
        KafkaPrincipal principal,
        String listenerName,
        AclAuthorizer authorizer) {
    /** A request on a PLAINTEXT connection of an unnamed listener, with no authorizer (tests, internal callers). */
    public RequestContext(RequestHeader header, String clientHost, String connectionId) {
        this(header, clientHost, connectionId, KafkaPrincipal.ANONYMOUS, "PLAINTEXT", AclAuthorizer.disabled());
    }

    public ApiKeys apiKey() {
        return header.apiKey();
    }

    public short apiVersion() {
        return header.apiVersion();
    }

    public String clientId() {
        return header.clientId() == null ? "" : header.clientId();
    }

    /** Whether this request's principal, from its host, may perform {@code operation} on the named resource. */
    public boolean authorize(AclOperation operation, ResourceType type, String name) {
        return authorizer.authorize(this, operation, type, name);
    }

    /** Whether this request's principal may perform {@code operation} on the cluster. */
    public boolean authorizeCluster(AclOperation operation) {
        return authorizer.authorize(this, operation, ResourceType.CLUSTER, AclAuthorizer.CLUSTER_NAME);
    }
}
