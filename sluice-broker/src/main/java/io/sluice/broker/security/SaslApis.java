package io.sluice.broker.security;

import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.RequestContext;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * SaslHandshake and SaslAuthenticate (v0-2) in the API table, so ApiVersions advertises them. SaslHandshake is
 * advertised from v0 because librdkafka requires v0 in the range before it logs in at all; a v0 handshake itself
 * (raw tokens without SaslAuthenticate framing, pre-1.0 clients) is refused with ILLEGAL_SASL_STATE. A login in progress never reaches these handlers (the connection's {@link ConnectionSession}
 * answers it, also a re-authentication when connections.max.reauth.ms is set); they answer only the requests Kafka
 * refuses with ILLEGAL_SASL_STATE: on a listener without SASL, or after the login when re-authentication is off.
 *
 * <p>Stateless; thread-safe.
 */
public final class SaslApis {
    private SaslApis() {}

    public static void register(ApiRegistry registry) {
        registry.register(
                        ApiKeys.SASL_HANDSHAKE,
                        0,
                        1,
                        (RequestContext context, SaslHandshakeRequestData request) ->
                                CompletableFuture.completedFuture(new SaslHandshakeResponseData()
                                        .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                                        .setMechanisms(List.of())))
                .register(
                        ApiKeys.SASL_AUTHENTICATE,
                        0,
                        2,
                        (RequestContext context, SaslAuthenticateRequestData request) ->
                                CompletableFuture.completedFuture(new SaslAuthenticateResponseData()
                                        .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                                        .setAuthBytes(new byte[0])
                                        .setErrorMessage("no SASL login is expected on this connection")));
    }
}
