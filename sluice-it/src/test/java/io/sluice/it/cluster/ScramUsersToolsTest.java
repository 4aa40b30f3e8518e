package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.security.TestSecurity;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.Test;

/**
 * SCRAM users managed with Apache Kafka 3.9's {@code kafka-configs.sh} (ConfigCommand run in-process) on three
 * SASL_PLAINTEXT brokers in their own JVMs, each step through a different broker: {@code --alter --add-config
 * 'SCRAM-SHA-256=[iterations=8192,password=...]'} stores a credential for a user no JAAS entry knows, after which
 * the user logs in with it on every broker; {@code --describe} shows its mechanism and iterations;
 * {@code --delete-config} removes it, after which every broker refuses the user's new logins.
 */
class ScramUsersToolsTest extends ClusterTestBase {
    private static final String CONFIG_COMMAND = "kafka.admin.ConfigCommand";
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(2);
    private static final String USER = "carol";
    private static final String PASSWORD = "carol-secret";
    private TestSecurity security;

    @Override
    List<String> brokerOverrides() {
        security = makeSecurity();
        List<String> settings = new ArrayList<>(security.brokerSettings("SASL_PLAINTEXT", "PLAIN"));
        settings.add("sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        return settings;
    }

    @Override
    Map<String, String> clientSecurity() {
        return security.clientProperties("SASL_PLAINTEXT", "PLAIN", TestSecurity.PASSWORD, false);
    }

    /** Runs kafka-configs.sh against {@code bootstrap}, logged in with PLAIN as the brokers' own user. */
    private String configs(String bootstrap, String... args) throws IOException {
        Path config = work.resolve("config-command.properties");
        Properties props = new Properties();
        props.putAll(security.clientProperties("SASL_PLAINTEXT", "PLAIN", TestSecurity.PASSWORD, false));
        props.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + TestSecurity.BROKER_USER + "\" password=\"" + TestSecurity.BROKER_PASSWORD + "\";");
        try (Writer out = Files.newBufferedWriter(config)) {
            props.store(out, null);
        }
        List<String> all = new ArrayList<>(List.of(
                "--bootstrap-server",
                bootstrap,
                "--command-config",
                config.toString(),
                "--entity-type",
                "users",
                "--entity-name",
                USER));
        all.addAll(List.of(args));
        ProcessResult result = InProcessTool.run(CONFIG_COMMAND, new byte[0], TOOL_TIMEOUT, all.toArray(new String[0]));
        assertTrue(result.succeeded(), result::describe);
        return result.stdoutText();
    }

    /** Whether {@code USER} logs in on broker {@code id} alone (its only bootstrap address) with SCRAM-SHA-256. */
    private boolean logsInOn(int id) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.broker(id).bootstrap());
        props.putAll(security.clientProperties("SASL_PLAINTEXT", "SCRAM-SHA-256", PASSWORD, false));
        props.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + USER + "\" password=\""
                        + PASSWORD + "\";");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = Admin.create(props)) {
            admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SaslAuthenticationException) {
                return false;
            }
            throw e;
        }
    }

    @Test
    void shouldAddDescribeAndDeleteAScramUserThatEveryBrokerHonours() throws Exception {
        List<Integer> ids = cluster.brokerIds();
        for (int id : ids) {
            assertTrue(!logsInOn(id), "no credential yet for " + USER + " on broker " + id);
        }
        String added = configs(
                cluster.broker(ids.get(0)).bootstrap(),
                "--alter",
                "--add-config",
                "SCRAM-SHA-256=[iterations=8192,password=" + PASSWORD + "]");
        assertTrue(added.contains("Completed updating config for user " + USER), added);
        for (int id : ids) {
            Poll.until(USER + " logs in on broker " + id, SETTLE, () -> logsInOn(id), in -> in);
        }

        String described = configs(cluster.broker(ids.get(1)).bootstrap(), "--describe");
        assertTrue(
                described.contains(
                        "SCRAM credential configs for user-principal '" + USER + "' are SCRAM-SHA-256=iterations=8192"),
                described);

        configs(cluster.broker(ids.get(2)).bootstrap(), "--alter", "--delete-config", "SCRAM-SHA-256");
        for (int id : ids) {
            Poll.until("broker " + id + " refuses " + USER + "'s new logins", SETTLE, () -> logsInOn(id), in -> !in);
        }
        // The admin client leaves out a user the broker answers RESOURCE_NOT_FOUND for: the tool prints no line.
        Poll.until(
                "--describe no longer shows the credential",
                SETTLE,
                () -> configs(cluster.broker(ids.get(0)).bootstrap(), "--describe"),
                out -> !out.contains("SCRAM credential configs for user-principal '" + USER + "'"));
    }
}
