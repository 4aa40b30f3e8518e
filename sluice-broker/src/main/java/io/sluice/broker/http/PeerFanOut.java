package io.sluice.broker.http;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The cluster-wide form of a per-broker endpoint ({@code ?scope=cluster}): this broker's own answer plus each other
 * live broker's, asked over HTTP at the address it registered ({@code SLUICE_HTTP} in the cluster state) with
 * {@code ?scope=local}, so no request ever fans out twice. A broker that does not answer within
 * {@link #PEER_TIMEOUT}, answers with an error, or sends more than {@link #MAX_PEER_BODY_BYTES} or anything but one
 * JSON value appears with an {@code error} instead of {@code data}; the others are still shown.
 *
 * <p>Thread-safe; requests run on the JDK HTTP client's threads ({@code sluice-http-peers}).
 */
final class PeerFanOut implements AutoCloseable {
    static final Duration PEER_TIMEOUT = Duration.ofSeconds(3);
    /** A broker's answer is a few kilobytes per topic; this bounds what a confused peer can make us hold. */
    static final long MAX_PEER_BODY_BYTES = 16L << 20;

    private final int selfId;
    private final Supplier<Map<Integer, String>> httpBases;
    private final ExecutorService executor;
    private final HttpClient client;

    /** @param httpBases the base URL ({@code http://host:port}) of every live broker that registered one */
    PeerFanOut(int selfId, Supplier<Map<Integer, String>> httpBases) {
        this.selfId = selfId;
        this.httpBases = httpBases;
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "sluice-http-peers");
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder()
                .connectTimeout(PEER_TIMEOUT)
                .executor(executor)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** One broker's answer: the JSON document, or why there is none. */
    private record Answer(int broker, byte[] data, String error) {}

    /** {@code {"scope":"cluster","brokers":[{"broker":1,"data":{..}},{"broker":2,"error":".."}]}}, brokers by id. */
    CompletableFuture<byte[]> gather(String endpointPath, JsonBody.Writer local) {
        return gather(endpointPath, local, null);
    }

    /** As {@link #gather(String, JsonBody.Writer)}, asking peers with {@code authorization} (the caller's login). */
    CompletableFuture<byte[]> gather(String endpointPath, JsonBody.Writer local, String authorization) {
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        boolean selfListed = false;
        for (Map.Entry<Integer, String> peer : httpBases.get().entrySet()) {
            if (peer.getKey() == selfId) {
                selfListed = true;
                answers.add(CompletableFuture.completedFuture(localAnswer(local)));
            } else {
                answers.add(ask(peer.getKey(), peer.getValue() + endpointPath + "?scope=local", authorization));
            }
        }
        if (!selfListed) {
            answers.add(0, CompletableFuture.completedFuture(localAnswer(local)));
        }
        return CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> {
                    try {
                        return JsonBody.of(json -> write(json, answers));
                    } catch (IOException e) {
                        throw new IllegalStateException("writing the gathered answers failed", e);
                    }
                });
    }

    private Answer localAnswer(JsonBody.Writer local) {
        try {
            return new Answer(selfId, JsonBody.of(local), null);
        } catch (IOException | RuntimeException e) {
            return new Answer(selfId, null, e.toString());
        }
    }

    private CompletableFuture<Answer> ask(int broker, String url, String authorization) {
        HttpRequest request;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
                    .timeout(PEER_TIMEOUT)
                    .GET();
            if (authorization != null) {
                builder.header("Authorization", authorization);
            }
            request = builder.build();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new Answer(broker, null, "bad address " + url));
        }
        HttpResponse.BodyHandler<byte[]> bounded = info -> {
            long length = info.headers().firstValueAsLong("content-length").orElse(-1);
            return info.statusCode() == 200 && length >= 0 && length <= MAX_PEER_BODY_BYTES
                    ? HttpResponse.BodySubscribers.ofByteArray()
                    : HttpResponse.BodySubscribers.replacing(null);
        };
        return client.sendAsync(request, bounded).handle((response, failure) -> {
            if (failure != null) {
                return new Answer(broker, null, "no answer from " + url + ": " + rootMessage(failure));
            }
            if (response.body() == null) {
                return new Answer(
                        broker, null, url + " answered status " + response.statusCode() + " without a bounded body");
            }
            return new Answer(broker, response.body(), null);
        });
    }

    private static void write(JsonGenerator json, List<CompletableFuture<Answer>> answers) throws IOException {
        json.writeStartObject();
        json.writeStringField("scope", "cluster");
        json.writeArrayFieldStart("brokers");
        List<Answer> sorted = new ArrayList<>();
        answers.forEach(a -> sorted.add(a.join()));
        sorted.sort((a, b) -> Integer.compare(a.broker(), b.broker()));
        for (Answer answer : sorted) {
            json.writeStartObject();
            json.writeNumberField("broker", answer.broker());
            String error = answer.error();
            if (error == null) {
                try {
                    JsonBody.copyField("data", answer.data(), json);
                    json.writeEndObject();
                    continue;
                } catch (IOException e) {
                    error = "not one JSON value: " + e.getMessage();
                }
            }
            json.writeStringField("error", error);
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.toString();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
