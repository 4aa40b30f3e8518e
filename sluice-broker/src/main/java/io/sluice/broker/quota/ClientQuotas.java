package io.sluice.broker.quota;

import io.sluice.broker.network.RequestContext;
import io.sluice.broker.network.RequestThrottler;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * Kafka's client quotas on this broker: the quota table of the applied cluster state (rebuilt when the state's quota
 * configurations change, so every broker enforces what the controller stored), and per request, as Kafka's request
 * handlers do, the produce bytes (the request's size, after the produce completes), the consumer fetch bytes (the
 * response's size; a throttled fetch is answered empty and its bytes taken back) and the request-handler time, each
 * against the quota that applies to the request's principal name ({@code ANONYMOUS} before or without
 * authentication) and client id. The largest throttle time goes into the response and mutes the connection.
 * Follower fetches, Kafka's cluster-action APIs and Sluice's own inter-broker clients are exempt. With no quota set
 * {@link #active()} is one map identity check and nothing is recorded.
 *
 * <p>Thread-safe.
 */
public final class ClientQuotas implements RequestThrottler {
    /** The client id prefix of Sluice's inter-broker clients (controller channel, room checks). */
    private static final String BROKER_CLIENT_PREFIX = "sluice-broker-";

    private static final double PERCENT_PER_NANO = 100.0 / 1_000_000_000L;

    private record Cached(Map<String, Map<String, String>> source, QuotaTable table) {}

    private final Supplier<Map<String, Map<String, String>>> configs;
    private final LongSupplier clockMs;
    private final EnumMap<QuotaType, ClientQuotaManager> managers = new EnumMap<>(QuotaType.class);
    private volatile Cached cached = new Cached(Map.of(), QuotaTable.EMPTY);

    /**
     * @param configs  the applied cluster state's client quota configurations (same instance while unchanged)
     * @param samples  quota.window.num
     * @param windowMs quota.window.size.seconds in ms
     */
    public ClientQuotas(
            Supplier<Map<String, Map<String, String>>> configs, int samples, long windowMs, LongSupplier clockMs) {
        this(configs, samples, windowMs, clockMs, QuotaMetrics.NONE);
    }

    /** @param metrics where each measured group's Kafka quota metrics go */
    public ClientQuotas(
            Supplier<Map<String, Map<String, String>>> configs,
            int samples,
            long windowMs,
            LongSupplier clockMs,
            QuotaMetrics metrics) {
        this.configs = configs;
        this.clockMs = clockMs;
        managers.put(
                QuotaType.PRODUCE,
                new ClientQuotaManager(QuotaType.PRODUCE, samples, windowMs, Integer.MAX_VALUE, metrics));
        managers.put(
                QuotaType.FETCH,
                new ClientQuotaManager(QuotaType.FETCH, samples, windowMs, Integer.MAX_VALUE, metrics));
        // Kafka bounds a request-time throttle by one window.
        managers.put(
                QuotaType.REQUEST, new ClientQuotaManager(QuotaType.REQUEST, samples, windowMs, windowMs, metrics));
    }

    private QuotaTable table() {
        Map<String, Map<String, String>> source = configs.get();
        Cached c = cached;
        if (c.source() != source) {
            c = new Cached(source, QuotaTable.of(source));
            cached = c;
        }
        return c.table();
    }

    @Override
    public boolean active() {
        return !table().isEmpty();
    }

    @Override
    public Throttled account(
            RequestContext context, boolean fromFollower, int requestBytes, long handlerNanos, ApiMessage response) {
        if (isExempt(context, fromFollower)) {
            return new Throttled(response, 0);
        }
        QuotaTable table = table();
        long now = clockMs.getAsLong();
        String user = context.principal().getName();
        String clientId = context.clientId();
        ApiKeys api = context.apiKey();
        int bandwidthMs = 0;
        if (api == ApiKeys.PRODUCE) {
            bandwidthMs = managers.get(QuotaType.PRODUCE)
                    .recordAndGetThrottleTimeMs(table, user, clientId, requestBytes, now);
        }
        // As Kafka: a produce with acks=0 (no response) is exempt from the request quota.
        int requestMs = api == ApiKeys.PRODUCE && response == null
                ? 0
                : managers.get(QuotaType.REQUEST)
                        .recordAndGetThrottleTimeMs(table, user, clientId, handlerNanos * PERCENT_PER_NANO, now);
        ApiMessage answer = response;
        if (api == ApiKeys.FETCH && response instanceof FetchResponseData fetched) {
            ClientQuotaManager fetch = managers.get(QuotaType.FETCH);
            int size = sizeOf(fetched, context.apiVersion());
            bandwidthMs = fetch.recordAndGetThrottleTimeMs(table, user, clientId, size, now);
            if (Math.max(bandwidthMs, requestMs) > 0) {
                fetch.unrecord(table, user, clientId, size, now);
                answer = new FetchResponseData().setSessionId(fetched.sessionId());
            }
        }
        int throttleMs = Math.max(bandwidthMs, requestMs);
        if (throttleMs > 0) {
            // as KafkaApis: the throttle counts on the quota that asked for the longer one
            QuotaType throttledBy = bandwidthMs > requestMs
                    ? (api == ApiKeys.FETCH ? QuotaType.FETCH : QuotaType.PRODUCE)
                    : QuotaType.REQUEST;
            managers.get(throttledBy).recordThrottle(table, user, clientId, throttleMs, now);
        }
        if (throttleMs > 0 && answer != null) {
            ThrottleTimeField.set(answer, throttleMs);
        }
        return new Throttled(answer, throttleMs);
    }

    /**
     * The most a consumer fetch of this request's client may return: Kafka caps a fetch's max bytes at the fetch
     * quota's {@code bound x (samples - 1) x window} so no single answer exceeds what the quota allows.
     */
    public int fetchMaxBytes(RequestContext context) {
        QuotaTable table = table();
        if (table.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        double max = managers.get(QuotaType.FETCH)
                .maxValueInQuotaWindow(table, context.principal().getName(), context.clientId());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, max));
    }

    /** Drops the rates of clients idle for an hour (run now and then from a broker timer). */
    public void expireIdle() {
        long now = clockMs.getAsLong();
        for (ClientQuotaManager m : managers.values()) {
            m.expireIdle(now);
        }
    }

    private static boolean isExempt(RequestContext context, boolean fromFollower) {
        return fromFollower
                || context.apiKey().clusterAction
                || (context.clientId().startsWith(BROKER_CLIENT_PREFIX)
                        && context.authorizeCluster(AclOperation.CLUSTER_ACTION));
    }

    private static int sizeOf(FetchResponseData response, short version) {
        MessageSizeAccumulator size = new MessageSizeAccumulator();
        response.addSize(size, new ObjectSerializationCache(), version);
        return size.totalSize();
    }
}
