package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.junit.jupiter.api.Test;

/**
 * The log cleaner's broker keys changed live on a three-broker cluster with Apache Kafka 3.9's {@code kafka-configs.sh}
 * ({@code kafka.admin.ConfigCommand} in its own JVM), as Kafka allows: log.cleaner.threads as the cluster default and
 * for one broker, each broker describing it with Kafka's source and actually running that many
 * {@code sluice-log-cleaner-*} threads (counted in a thread dump of the broker's process with the JDK's jcmd); more
 * than doubling is refused with Kafka's message.
 */
class CleanerConfigToolsTest extends ClusterTestBase {
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(2);
    private static final String CONFIG_COMMAND = "kafka.admin.ConfigCommand";
    private static final String THREADS = "log.cleaner.threads";

    private ProcessResult configs(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrap()));
        all.addAll(List.of(args));
        return ChildProcessRunner.run(
                ChildProcessRunner.javaMain(CONFIG_COMMAND, all.toArray(new String[0])), new byte[0], TOOL_TIMEOUT);
    }

    private String configsOk(String... args) throws IOException {
        ProcessResult result = configs(args);
        assertTrue(result.succeeded(), result::describe);
        return result.stdoutText();
    }

    /** Cleaner threads alive in broker {@code id}'s JVM, from {@code jcmd <pid> Thread.print}. */
    private long cleanerThreads(int id) throws IOException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        ProcessResult dump = ChildProcessRunner.run(
                List.of(jcmd, Long.toString(cluster.broker(id).pid()), "Thread.print"), new byte[0], TOOL_TIMEOUT);
        assertTrue(dump.succeeded(), dump::describe);
        return dump.stdoutText()
                .lines()
                .filter(line -> line.startsWith("\"sluice-log-cleaner-"))
                .count();
    }

    private void awaitThreads(int id, String value, ConfigEntry.ConfigSource source) throws Exception {
        String bootstrap = cluster.broker(id).bootstrap();
        Poll.until(
                "broker " + id + " describes " + THREADS + "=" + value + " (" + source + ")",
                SETTLE,
                () -> OneRequest.describeConfig(bootstrap, null, Integer.toString(id), THREADS),
                (DescribeConfigsResourceResult r) -> r != null
                        && value.equals(r.value())
                        && DescribeConfigsResponse.ConfigSource.forId(r.configSource())
                                        .source()
                                == source);
        long expected = Long.parseLong(value);
        Poll.until(
                "broker " + id + " runs " + value + " cleaner threads",
                SETTLE,
                () -> cleanerThreads(id),
                n -> n == expected);
    }

    @Test
    void shouldResizeTheCleanerPoolPerBrokerAndClusterDefaultWithKafkaConfigsTool() throws Exception {
        for (int id : cluster.brokerIds()) {
            assertEquals(1, cleanerThreads(id), "broker " + id + " starts with log.cleaner.threads=1");
        }
        String added =
                configsOk("--entity-type", "brokers", "--entity-default", "--alter", "--add-config", THREADS + "=2");
        assertTrue(added.contains("Completed updating default config for brokers in the cluster"), added);
        for (int id : cluster.brokerIds()) {
            awaitThreads(id, "2", ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        }

        int one = cluster.brokerIds().get(0);
        String self = Integer.toString(one);
        configsOk("--entity-type", "brokers", "--entity-name", self, "--alter", "--add-config", THREADS + "=3");
        awaitThreads(one, "3", ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
        for (int id : cluster.brokerIds()) {
            if (id != one) {
                assertEquals(2, cleanerThreads(id), "broker " + id + " keeps the cluster default");
            }
        }
        String described = configsOk("--entity-type", "brokers", "--entity-name", self, "--describe");
        assertTrue(
                described.contains(THREADS + "=3 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:" + THREADS + "=3, "
                        + "DYNAMIC_DEFAULT_BROKER_CONFIG:" + THREADS + "=2"),
                described);

        ProcessResult refused =
                configs("--entity-type", "brokers", "--entity-name", self, "--alter", "--add-config", THREADS + "=10");
        assertFalse(refused.succeeded(), refused::describe);
        assertTrue(
                refused.describe().contains("Log cleaner threads cannot be increased to more than double"),
                refused::describe);

        configsOk("--entity-type", "brokers", "--entity-name", self, "--alter", "--delete-config", THREADS);
        awaitThreads(one, "2", ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
    }
}
