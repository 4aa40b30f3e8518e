package io.sluice.broker.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * Kafka's {@code kafka.network:type=RequestMetrics} for one broker: per request type (Kafka's names: Produce, Fetch,
 * and Fetch again as FetchConsumer or FetchFollower) the RequestsPerSec meter per version, the time histograms in
 * milliseconds (RequestQueueTimeMs, LocalTimeMs, RemoteTimeMs, ResponseSendTimeMs and their sum TotalTimeMs) and
 * ErrorsPerSec per error code the responses carried (NONE included, as in Kafka). A type's five times are one
 * {@link RecentHistograms} group, recorded together; Fetch's times are read from FetchConsumer's and FetchFollower's
 * groups, so a fetch's times are recorded once.
 *
 * <p>Thread-safe; after a type's first request, recording looks up array slots and takes one stripe lock of the
 * type's group: no allocation.
 */
public final class RequestMetrics {
    public static final String DOMAIN = "kafka.network";
    public static final String TYPE = "RequestMetrics";
    public static final String FETCH_CONSUMER = ApiKeys.FETCH.name + "Consumer";
    public static final String FETCH_FOLLOWER = ApiKeys.FETCH.name + "Follower";
    /** Versions above this get no meter of their own; every Kafka API is far below it. */
    private static final int VERSION_SLOTS = 64;

    private static final int ERROR_SLOTS = maxErrorCode() + 2;

    /** The time histograms' names, in their order in a type's group. */
    private static final String[] TIME_NAMES = {
        "RequestQueueTimeMs", "LocalTimeMs", "RemoteTimeMs", "ResponseSendTimeMs", "TotalTimeMs"
    };

    private static final int QUEUE_TIME = 0;
    private static final int LOCAL_TIME = 1;
    private static final int REMOTE_TIME = 2;
    private static final int SEND_TIME = 3;
    private static final int TOTAL_TIME = 4;

    private final KafkaMetrics metrics;
    private final AtomicReferenceArray<Type> byApiKey;
    private final Type fetchConsumer;
    private final Type fetchFollower;

    public RequestMetrics(KafkaMetrics metrics) {
        this.metrics = metrics;
        int maxId = 0;
        for (ApiKeys key : ApiKeys.values()) {
            maxId = Math.max(maxId, key.id);
        }
        this.byApiKey = new AtomicReferenceArray<>(maxId + 1);
        this.fetchConsumer = new Type(FETCH_CONSUMER);
        this.fetchFollower = new Type(FETCH_FOLLOWER);
        byApiKey.set(ApiKeys.FETCH.id, new Type(ApiKeys.FETCH.name, fetchConsumer, fetchFollower));
    }

    /**
     * The metrics of requests of {@code apiKey}. Fetch's times are its parts': record a fetch's times as
     * {@link #fetchBy} and only count it here ({@link Type#countRequest}).
     */
    public Type of(ApiKeys apiKey) {
        Type type = byApiKey.get(apiKey.id);
        if (type == null) {
            byApiKey.compareAndSet(apiKey.id, null, new Type(apiKey.name));
            type = byApiKey.get(apiKey.id);
        }
        return type;
    }

    /** The metrics Kafka keeps apart for fetches from consumers or from followers (besides those of Fetch). */
    public Type fetchBy(boolean follower) {
        return follower ? fetchFollower : fetchConsumer;
    }

    public static MetricName name(String name, String request, String... moreTags) {
        String[] tags = new String[2 + moreTags.length];
        tags[0] = "request";
        tags[1] = request;
        System.arraycopy(moreTags, 0, tags, 2, moreTags.length);
        return MetricName.of(DOMAIN, TYPE, name, tags);
    }

    private static long roundedMillis(long nanos) {
        return Math.round(Math.max(nanos, 0) / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }

    private static int maxErrorCode() {
        int max = 0;
        for (Errors error : Errors.values()) {
            max = Math.max(max, error.code());
        }
        return max;
    }

    /** The metrics of one request type. Thread-safe. */
    public final class Type {
        private final String request;
        /** The five times, in {@link #TIME_NAMES}' order; null for a type whose times are its parts'. */
        private final RecentHistograms times;

        private final AtomicReferenceArray<KafkaMeter> requestsByVersion = new AtomicReferenceArray<>(VERSION_SLOTS);
        /** Indexed by error code + 1 (UNKNOWN_SERVER_ERROR is -1). */
        private final AtomicReferenceArray<KafkaMeter> errors = new AtomicReferenceArray<>(ERROR_SLOTS);

        private Type(String request) {
            this.request = request;
            MetricName[] names = new MetricName[TIME_NAMES.length];
            for (int i = 0; i < names.length; i++) {
                names[i] = name(TIME_NAMES[i], request);
            }
            this.times = metrics.histograms(names);
        }

        /** A type whose times are read from those of {@code parts} (Fetch's, from FetchConsumer and FetchFollower). */
        private Type(String request, Type... parts) {
            this.request = request;
            this.times = null;
            RecentHistograms[] groups = new RecentHistograms[parts.length];
            for (int i = 0; i < parts.length; i++) {
                groups[i] = parts[i].times;
            }
            for (int i = 0; i < TIME_NAMES.length; i++) {
                metrics.histogram(name(TIME_NAMES[i], request), RecentHistogram.merged(i, groups));
            }
        }

        /**
         * One request answered: {@code queueNanos} waiting for its handler, {@code localNanos} handled on it,
         * {@code remoteNanos} waiting for others (replicas, a long poll), {@code sendNanos} until written out.
         */
        public void record(short version, long queueNanos, long localNanos, long remoteNanos, long sendNanos) {
            record(version, queueNanos, localNanos, remoteNanos, sendNanos, System.nanoTime());
        }

        /** As {@link #record(short, long, long, long, long)} at {@code now}, a {@link System#nanoTime()} reading. */
        void record(short version, long queueNanos, long localNanos, long remoteNanos, long sendNanos, long now) {
            if (times == null) {
                throw new IllegalStateException(request + "'s times are recorded by the types it is made of");
            }
            countRequest(version, now);
            try (RecentHistograms.Writer writer = times.writer(now)) {
                writer.record(QUEUE_TIME, roundedMillis(queueNanos));
                writer.record(LOCAL_TIME, roundedMillis(localNanos));
                writer.record(REMOTE_TIME, roundedMillis(remoteNanos));
                writer.record(SEND_TIME, roundedMillis(sendNanos));
                writer.record(TOTAL_TIME, roundedMillis(queueNanos + localNanos + remoteNanos + sendNanos));
            }
        }

        /** One request of {@code version} at {@code now}, a {@link System#nanoTime()} reading; no times. */
        void countRequest(short version, long now) {
            requests(version).mark(1, now);
        }

        /** {@code count} results of a response carried {@code errorCode}. */
        public void markError(short errorCode, int count) {
            markError(errorCode, count, System.nanoTime());
        }

        /** As {@link #markError(short, int)} at {@code nowNanos}, a {@link System#nanoTime()} reading. */
        void markError(short errorCode, int count, long nowNanos) {
            int slot = errorCode + 1;
            if (slot < 0 || slot >= ERROR_SLOTS) {
                slot = Errors.UNKNOWN_SERVER_ERROR.code() + 1;
            }
            KafkaMeter meter = errors.get(slot);
            if (meter == null) {
                errors.compareAndSet(
                        slot,
                        null,
                        metrics.meter(
                                name(
                                        "ErrorsPerSec",
                                        request,
                                        "error",
                                        Errors.forCode((short) (slot - 1)).name()),
                                "requests"));
                meter = errors.get(slot);
            }
            meter.mark(count, nowNanos);
        }

        private KafkaMeter requests(short version) {
            int slot = Math.min(Math.max(version, 0), VERSION_SLOTS - 1);
            KafkaMeter meter = requestsByVersion.get(slot);
            if (meter == null) {
                requestsByVersion.compareAndSet(
                        slot,
                        null,
                        metrics.meter(name("RequestsPerSec", request, "version", Integer.toString(slot)), "requests"));
                meter = requestsByVersion.get(slot);
            }
            return meter;
        }
    }
}
