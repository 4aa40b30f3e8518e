package io.sluice.broker.network;

import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Who sent a request and how: its parsed header and the connection it came on.
 *
 * <p>Immutable.
 */
public record RequestContext(RequestHeader header, String clientHost, String connectionId) {
    public ApiKeys apiKey() { return header.apiKey(); }
    public short apiVersion() { return header.apiVersion(); }
    public String clientId() { return header.clientId() == null ? "" : header.clientId(); }
}
