package io.sluice.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.network.RequestContext;
import io.sluice.broker.network.RequestThrottler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;

/**
 * The broker's quota hook with an injected clock: inactive (one identity check) without quotas, the table followed as
 * the cluster state changes, produce bytes and fetch response bytes counted, a throttled fetch answered empty and taken
 * back, the throttle time written into any response that has the field, acks=0 and follower fetches as Kafka treats
 * them, the fetch cap.
 */
class ClientQuotasTest {
    private final AtomicReference<Map<String, Map<String, String>>> configs = new AtomicReference<>(Map.of());
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final ClientQuotas quotas = new ClientQuotas(configs::get, 11, 1000, now::get);

    private static RequestContext request(ApiKeys api, String clientId) {
        return new RequestContext(new RequestHeader(api, api.latestVersion(), clientId, 1), "127.0.0.1", "c1");
    }

    @Test
    void shouldStayInactiveWithoutQuotasAndFollowTheClusterState() {
        assertFalse(quotas.active());
        assertEquals(Integer.MAX_VALUE, quotas.fetchMaxBytes(request(ApiKeys.FETCH, "app")));
        configs.set(Map.of("clients/app", Map.of("consumer_byte_rate", "1000")));
        assertTrue(quotas.active());
        assertEquals(10_000, quotas.fetchMaxBytes(request(ApiKeys.FETCH, "app")), "bound x (samples - 1) x window");
        assertEquals(Integer.MAX_VALUE, quotas.fetchMaxBytes(request(ApiKeys.FETCH, "other")));
        configs.set(Map.of());
        assertFalse(quotas.active());
    }

    @Test
    void shouldThrottleProduceBytesIntoTheResponse() {
        configs.set(Map.of("clients/app", Map.of("producer_byte_rate", "1000")));
        ProduceResponseData ok = new ProduceResponseData();
        assertEquals(
                0,
                quotas.account(request(ApiKeys.PRODUCE, "app"), false, 10_000, 0, ok)
                        .throttleMs());
        RequestThrottler.Throttled over =
                quotas.account(request(ApiKeys.PRODUCE, "app"), false, 10_000, 0, new ProduceResponseData());
        assertEquals(10_000, over.throttleMs());
        assertEquals(10_000, ((ProduceResponseData) over.response()).throttleTimeMs());
        RequestThrottler.Throttled acksZero = quotas.account(request(ApiKeys.PRODUCE, "app"), false, 1, 0, null);
        assertNull(acksZero.response(), "acks=0 still has no response");
        assertTrue(acksZero.throttleMs() > 0, "but its connection is muted (Kafka's produce quota applies to it)");
        assertEquals(
                0,
                quotas.account(
                                request(ApiKeys.PRODUCE, "sluice-broker-2-to-controller"),
                                false,
                                1 << 30,
                                0,
                                new ProduceResponseData())
                        .throttleMs(),
                "Sluice's own inter-broker clients are exempt");
    }

    @Test
    void shouldAnswerAThrottledFetchEmptyAndTakeItsBytesBack() {
        configs.set(Map.of("clients/<default>", Map.of("consumer_byte_rate", "50")));
        FetchResponseData full = new FetchResponseData().setSessionId(0);
        full.responses()
                .add(new FetchResponseData.FetchableTopicResponse()
                        .setTopic("t")
                        .setPartitions(List.of(new FetchResponseData.PartitionData().setPartitionIndex(0))));
        RequestThrottler.Throttled first = quotas.account(request(ApiKeys.FETCH, "c"), false, 0, 0, full);
        assertSame(full, first.response(), "tiny responses pass");
        FetchResponseData big = new FetchResponseData();
        for (int i = 0; i < 100; i++) {
            big.responses().add(new FetchResponseData.FetchableTopicResponse().setTopic("topic-" + i));
        }
        RequestThrottler.Throttled throttled = quotas.account(request(ApiKeys.FETCH, "c"), false, 0, 0, big);
        assertTrue(throttled.throttleMs() > 0);
        FetchResponseData empty = (FetchResponseData) throttled.response();
        assertTrue(empty.responses().isEmpty(), "a throttled fetch is answered empty, as Kafka does");
        assertEquals(throttled.throttleMs(), empty.throttleTimeMs());
        assertEquals(
                0,
                quotas.account(request(ApiKeys.FETCH, "c"), false, 0, 0, full).throttleMs(),
                "the emptied fetch's bytes were taken back");
        assertSame(
                big,
                quotas.account(request(ApiKeys.FETCH, "c"), true, 0, 0, big).response(),
                "follower fetches are exempt");
    }

    @Test
    void shouldApplyUserQuotasToTheAuthenticatedPrincipal() {
        configs.set(Map.of(
                "users/alice",
                Map.of("producer_byte_rate", "1000"),
                "clients/<default>",
                Map.of("producer_byte_rate", "1000000")));
        RequestContext alice = new RequestContext(
                new RequestHeader(ApiKeys.PRODUCE, (short) 9, "app", 1),
                "127.0.0.1",
                "c1",
                new org.apache.kafka.common.security.auth.KafkaPrincipal("User", "alice"),
                "SASL_PLAINTEXT",
                io.sluice.broker.security.acl.AclAuthorizer.disabled());
        assertEquals(
                0,
                quotas.account(alice, false, 10_000, 0, new ProduceResponseData())
                        .throttleMs());
        assertEquals(
                10_000,
                quotas.account(alice, false, 10_000, 0, new ProduceResponseData())
                        .throttleMs(),
                "alice's user quota, not the client-id default");
        assertEquals(
                0,
                quotas.account(request(ApiKeys.PRODUCE, "app"), false, 20_000, 0, new ProduceResponseData())
                        .throttleMs(),
                "ANONYMOUS falls to the client-id default");
    }

    @Test
    void shouldBoundRequestTimeThrottlesByOneWindow() {
        configs.set(Map.of("users/ANONYMOUS", Map.of("request_percentage", "10")));
        MetadataResponseData metadata = new MetadataResponseData();
        RequestThrottler.Throttled t =
                quotas.account(request(ApiKeys.METADATA, "any"), false, 0, 5_000_000_000L, metadata);
        assertEquals(1000, t.throttleMs(), "5 s of a thread is far above 10%; Kafka caps the throttle at one window");
        assertEquals(1000, metadata.throttleTimeMs());
        now.addAndGet(11_000);
        assertEquals(
                0,
                quotas.account(request(ApiKeys.METADATA, "any"), false, 0, 1_000_000, new MetadataResponseData())
                        .throttleMs(),
                "eleven seconds later the samples have expired");
    }
}
