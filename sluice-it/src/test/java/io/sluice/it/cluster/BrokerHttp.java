package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.codec.endpoint.Endpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A broker's HTTP listener ({@code sluice.http.listener}) as a test reaches it: its base URL from the cluster state the
 * broker registered, and single samples of its Prometheus scrape.
 *
 * <p>Thread-safe; stateless.
 */
final class BrokerHttp {
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();

    private BrokerHttp() {}

    /** {@code http://host:port} of broker {@code brokerId}'s HTTP listener, as the broker advertised it. */
    static String base(ClusterState state, int brokerId) {
        BrokerInfo broker = state.broker(brokerId);
        assertNotNull(broker, "broker " + brokerId + " in the cluster state");
        int index = broker.listenerNames().indexOf("SLUICE_HTTP");
        assertTrue(index >= 0, "broker " + brokerId + " registered its HTTP listener: " + broker);
        Endpoint http = broker.endpoints().get(index);
        return "http://" + http.host() + ":" + http.port();
    }

    /** The value of the unlabelled sample {@code name} in the broker's {@code /metrics} scrape now. */
    static double metric(String base, String name) throws IOException, InterruptedException {
        HttpResponse<String> response = CLIENT.send(
                HttpRequest.newBuilder(URI.create(base + "/metrics"))
                        .timeout(HTTP_TIMEOUT)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + base + "/metrics answered " + response.statusCode());
        }
        for (String line : response.body().split("\n", -1)) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new IOException("no sample " + name + " in the scrape of " + base);
    }
}
