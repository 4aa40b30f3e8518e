package io.sluice.testkit.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.FakeBrokerDistribution;
import io.sluice.testkit.SluiceCliDistribution;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up and failure paths of the cluster harness, with stand-in brokers. */
class ProcessClusterTest {

    @TempDir
    Path work;

    @Test
    void shouldNameEveryBrokerThatFailedWithTheClusterSettingsItWasGiven() throws Exception {
        SluiceCliDistribution fake = FakeBrokerDistribution.packageInto(work.resolve("cli"));
        IOException failure = assertThrows(
                IOException.class,
                () -> ProcessCluster.start(
                        fake,
                        work.resolve("cluster"),
                        2,
                        ProcessCluster.TEST_SESSION_TIMEOUT,
                        List.of("fake.fail=true")));
        assertTrue(failure.getMessage().contains("broker 1 did not start"), failure.getMessage());
        assertTrue(failure.getMessage().contains("--override broker.id=1"), failure.getMessage());
        assertTrue(failure.getMessage().contains("--override zookeeper.connect=127.0.0.1:"), failure.getMessage());
        assertTrue(failure.getMessage().contains("/sluice-test-"), "a chroot of its own: " + failure.getMessage());
        assertTrue(failure.getMessage().contains("--override zookeeper.session.timeout.ms=6000"), failure.getMessage());
        assertEquals(1, failure.getSuppressed().length, "broker 2's failure rides along");
        assertTrue(
                failure.getSuppressed()[0].getMessage().contains("broker 2 did not start"),
                failure.getSuppressed()[0].getMessage());
    }

    @Test
    void shouldRefuseAClusterWithoutBrokers() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ProcessCluster.start(work, 0, ProcessCluster.TEST_SESSION_TIMEOUT));
    }
}
