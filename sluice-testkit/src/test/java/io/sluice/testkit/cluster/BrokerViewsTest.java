package io.sluice.testkit.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wait at the end of a cluster's start, against stand-in brokers whose Metadata answers a test scripts: a broker
 * that lists too few brokers is asked again, itself and not another broker, until it lists all.
 */
class BrokerViewsTest {
    /** Bound on a wait that must succeed; only a failure waits this long. */
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** Bound on a wait that must fail: several rounds of asking. */
    private static final Duration SHORT = Duration.ofSeconds(2);

    private FakeMetadataBroker one;
    private FakeMetadataBroker two;
    private FakeMetadataBroker three;

    @BeforeEach
    void startBrokers() throws Exception {
        one = FakeMetadataBroker.start(1);
        two = FakeMetadataBroker.start(2);
        three = FakeMetadataBroker.start(3);
    }

    @AfterEach
    void stopBrokers() throws Exception {
        for (FakeMetadataBroker broker : List.of(one, two, three)) {
            broker.close();
        }
    }

    @Test
    void shouldAskABrokerThatListsTooFewAgainUntilItListsAll() throws Exception {
        List<FakeMetadataBroker> all = List.of(one, two, three);
        one.willList(all);
        // Broker 2 applies the state with broker 3 only at its third answer, while it names brokers 1 and 3, which
        // list all from the start, at their real addresses: only asking broker 2 itself sees it lag.
        two.willList(List.of(one, two), List.of(one, two), all);
        three.willList(all);

        try (BrokerViews views = BrokerViews.open(bootstraps(), Map.of())) {
            views.awaitEveryBrokerListsAll(SETTLE);
        }

        assertEquals(3, two.metadataAnswers(), "broker 2 asked until it listed all");
        assertEquals(1, one.metadataAnswers(), "broker 1 listed all at once and was not asked again");
        assertEquals(1, three.metadataAnswers(), "broker 3 listed all at once and was not asked again");
    }

    @Test
    void shouldNameWhatEachBrokerListedWhenOneNeverListsAll() throws Exception {
        one.willList(List.of(one, two, three));
        two.willList(List.of(one, two));
        three.close();

        AssertionError failure;
        try (BrokerViews views = BrokerViews.open(bootstraps(), Map.of())) {
            failure = assertThrows(AssertionError.class, () -> views.awaitEveryBrokerListsAll(SHORT));
        }

        String message = failure.getMessage();
        assertTrue(message.contains("every broker lists all 3 brokers [1, 2, 3]"), message);
        assertTrue(message.contains("broker 1 lists [1, 2, 3]"), message);
        assertTrue(message.contains("broker 2 lists [1, 2]"), message);
        assertTrue(message.contains("broker 3 did not answer"), message);
    }

    private Map<Integer, String> bootstraps() {
        Map<Integer, String> bootstraps = new LinkedHashMap<>();
        for (FakeMetadataBroker broker : List.of(one, two, three)) {
            bootstraps.put(broker.id(), broker.bootstrap());
        }
        return bootstraps;
    }
}
