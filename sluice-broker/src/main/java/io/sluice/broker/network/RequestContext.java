package io.sluice.broker.network;

import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * Who sent a request and how: its parsed header, the connection and listener it came on, and the authenticated
 * principal ({@code User:<name>} after SASL or from a client certificate, {@code User:ANONYMOUS} otherwise), which the
 * authorizer will check.
 *
 * <p>Immutable.
 */
public record RequestContext(RequestHeader header, String clientHost, String connectionId, KafkaPrincipal principal,
                             String listenerName) {
    /** A request on a PLAINTEXT connection of an unnamed listener (tests, internal callers). */
    public RequestContext(RequestHeader header, String clientHost, String connectionId) {
        this(header, clientHost, connectionId, KafkaPrincipal.ANONYMOUS, "PLAINTEXT");
    }

    public ApiKeys apiKey() { return header.apiKey(); }
    public short apiVersion() { return header.apiVersion(); }
    public String clientId() { return header.clientId() == null ? "" : header.clientId(); }
}
