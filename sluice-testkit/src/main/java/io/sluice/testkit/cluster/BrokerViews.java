package io.sluice.testkit.cluster;

import io.sluice.testkit.Poll;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.KafkaException;

/**
 * Which brokers each broker of a cluster lists in its own Metadata answer, asked of each broker directly
 * ({@link BrokerMetadataClient}) until every one lists every broker. A controller publishes the cluster state in
 * ZooKeeper, and each broker applies it a moment later: until then a broker refuses, say, a replication factor the
 * published state would allow. A broker that lists all is not asked again.
 *
 * <p>Metadata answers from the state the broker's follower holds; the broker's topic manager, which checks a
 * replication factor, applies that state right after on the follower's thread. A request sent after this wait finds it
 * applied unless that thread stalled in between.
 *
 * <p>Not thread-safe; one per wait, driven by the test thread.
 */
final class BrokerViews implements AutoCloseable {
    private final Set<Integer> expected;
    /** The listener's security protocol as the clients speak it, for the failure message. */
    private final String securityProtocol;

    private final Map<Integer, BrokerMetadataClient> clients = new TreeMap<>();
    /** Each broker's last answer (or why there was none), in words, by broker id. */
    private final Map<Integer, String> lastAnswers = new TreeMap<>();
    /** The brokers that listed every broker: not asked again. */
    private final Set<Integer> listingAll = new TreeSet<>();

    private BrokerViews(Set<Integer> expected, String securityProtocol) {
        this.expected = new TreeSet<>(expected);
        this.securityProtocol = securityProtocol;
    }

    /**
     * Clients for the brokers {@code bootstrapById} names (id to {@code host:port}), each of which must come to list
     * all of them; they connect on the first ask.
     *
     * @param clientProperties Kafka client settings for the brokers' listener (security.protocol, ssl.*, sasl.*)
     */
    static BrokerViews open(Map<Integer, String> bootstrapById, Map<String, String> clientProperties) {
        BrokerViews views = new BrokerViews(
                bootstrapById.keySet(),
                clientProperties.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT"));
        try {
            for (Map.Entry<Integer, String> broker : bootstrapById.entrySet()) {
                views.clients.put(
                        broker.getKey(),
                        BrokerMetadataClient.open(broker.getKey(), broker.getValue(), clientProperties));
            }
            return views;
        } catch (RuntimeException e) {
            views.close();
            throw e;
        }
    }

    /**
     * Waits until every broker lists every broker in its Metadata answer.
     *
     * @throws AssertionError after {@code timeout}, naming the brokers each one listed last (or why it did not answer)
     */
    void awaitEveryBrokerListsAll(Duration timeout) throws InterruptedException {
        String what = "every broker lists all " + expected.size() + " brokers " + expected
                + " in its Metadata answer (asked over " + securityProtocol + ")";
        Poll.until(what, timeout, this::askThoseMissingABroker, Round::everyBrokerListsAll);
    }

    /** Asks each broker that did not list all brokers yet; one that did is done (brokers only join during a start). */
    private Round askThoseMissingABroker() {
        for (Map.Entry<Integer, BrokerMetadataClient> broker : clients.entrySet()) {
            int id = broker.getKey();
            if (listingAll.contains(id)) {
                continue;
            }
            try {
                Set<Integer> listed = broker.getValue().listedBrokerIds();
                lastAnswers.put(id, "lists " + listed);
                if (listed.containsAll(expected)) {
                    listingAll.add(id);
                }
            } catch (IOException | KafkaException e) {
                lastAnswers.put(id, "did not answer: " + e);
            }
        }
        return new Round(listingAll.equals(expected), new LinkedHashMap<>(lastAnswers));
    }

    /** One round of asking: whether every broker listed all by now, and each broker's last answer. */
    private record Round(boolean everyBrokerListsAll, Map<Integer, String> lastAnswers) {
        @Override
        public String toString() {
            StringJoiner answers = new StringJoiner("; ");
            lastAnswers.forEach((id, answer) -> answers.add("broker " + id + " " + answer));
            return answers.toString();
        }
    }

    @Override
    public void close() {
        for (BrokerMetadataClient client : clients.values()) {
            client.close();
        }
        clients.clear();
    }
}
