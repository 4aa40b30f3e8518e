package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterClientQuotasOptions;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.SupportedVersionRange;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.Test;

/**
 * Client quotas and features on a three-broker cluster through Apache Kafka 3.9's own tools
 * ({@code kafka.admin.ConfigCommand} and {@code org.apache.kafka.tools.FeatureCommand} run in-process) and the admin
 * client: quotas of client ids, the default client id and users altered (through a broker that is not the
 * controller), described on every broker, deleted; bad entities, keys and values refused with Kafka's error codes and
 * nothing stored; {@code kafka-features.sh describe} printing what a Kafka 3.9 ZooKeeper-mode broker prints for
 * Sluice's one feature.
 */
class ClientQuotaToolsTest extends ClusterTestBase {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(120);

    private ProcessResult tool(String mainClass, String bootstrap, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        all.addAll(List.of(args));
        return InProcessTool.run(mainClass, new byte[0], TOOL_TIMEOUT, all.toArray(new String[0]));
    }

    private String configsOk(String bootstrap, String... args) throws IOException {
        ProcessResult result = tool("kafka.admin.ConfigCommand", bootstrap, args);
        assertTrue(result.succeeded(), result::describe);
        return result.stdoutText();
    }

    private int nonController() throws Exception {
        int controller = cluster.probe().controller().brokerId();
        return cluster.brokerIds().stream()
                .filter(id -> id != controller)
                .findFirst()
                .orElseThrow();
    }

    /** Waits until every broker's describe of client {@code name} ({@code null}: the default) prints {@code expected}. */
    private void awaitEveryBrokerDescribes(String name, List<String> expected) throws Exception {
        for (int id : cluster.brokerIds()) {
            String bootstrap = cluster.broker(id).bootstrap();
            List<String> args = name == null
                    ? List.of("--entity-type", "clients", "--entity-default", "--describe")
                    : List.of("--entity-type", "clients", "--entity-name", name, "--describe");
            Poll.until(
                    "broker " + id + " describes " + expected,
                    SETTLE,
                    () -> configsOk(bootstrap, args.toArray(new String[0])),
                    out -> expected.stream().allMatch(out::contains) && (!expected.isEmpty() || out.isBlank()));
        }
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> describeAll(Admin admin) throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get();
    }

    private static ClientQuotaEntity entity(String... typesAndNames) {
        Map<String, String> entries = new HashMap<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            entries.put(typesAndNames[i], typesAndNames[i + 1]);
        }
        return new ClientQuotaEntity(entries);
    }

    private static Throwable alterFails(Admin admin, ClientQuotaEntity entity, ClientQuotaAlteration.Op... ops) {
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, List.of(ops))))
                        .all()
                        .get());
        return e.getCause();
    }

    @Test
    void shouldAlterDescribeAndDeleteClientQuotasWithKafkaConfigsTool() throws Exception {
        String viaFollower = cluster.broker(nonController()).bootstrap();
        String added = configsOk(
                viaFollower,
                "--entity-type",
                "clients",
                "--entity-name",
                "app-1",
                "--alter",
                "--add-config",
                "producer_byte_rate=1048576,consumer_byte_rate=2097152,request_percentage=200");
        assertTrue(added.contains("Completed updating config for client app-1."), added);
        awaitEveryBrokerDescribes(
                "app-1",
                List.of(
                        "Quota configs for client-id 'app-1' are ",
                        "producer_byte_rate=1048576.0",
                        "consumer_byte_rate=2097152.0",
                        "request_percentage=200.0"));

        configsOk(
                cluster.bootstrap(),
                "--entity-type",
                "clients",
                "--entity-default",
                "--alter",
                "--add-config",
                "consumer_byte_rate=4096");
        awaitEveryBrokerDescribes(
                null, List.of("Quota configs for the default client-id are consumer_byte_rate=4096.0"));

        String deleted = configsOk(
                viaFollower,
                "--entity-type",
                "clients",
                "--entity-name",
                "app-1",
                "--alter",
                "--delete-config",
                "producer_byte_rate,request_percentage");
        assertTrue(deleted.contains("Completed updating config for client app-1."), deleted);
        awaitEveryBrokerDescribes(
                "app-1", List.of("Quota configs for client-id 'app-1' are consumer_byte_rate=2097152.0"));
        String described =
                configsOk(cluster.bootstrap(), "--entity-type", "clients", "--entity-name", "app-1", "--describe");
        assertFalse(described.contains("producer_byte_rate"), described);

        // Deleting the last quota removes the entity; deleting a key it does not have is the tool's own error.
        configsOk(
                cluster.bootstrap(),
                "--entity-type",
                "clients",
                "--entity-name",
                "app-1",
                "--alter",
                "--delete-config",
                "consumer_byte_rate");
        awaitEveryBrokerDescribes("app-1", List.of());
        ProcessResult notThere = tool(
                "kafka.admin.ConfigCommand",
                cluster.bootstrap(),
                "--entity-type",
                "clients",
                "--entity-name",
                "app-1",
                "--alter",
                "--delete-config",
                "consumer_byte_rate");
        assertFalse(notThere.succeeded(), notThere::describe);
        assertTrue(notThere.describe().contains("Invalid config(s): consumer_byte_rate"), notThere::describe);
        ProcessResult notANumber = tool(
                "kafka.admin.ConfigCommand",
                cluster.bootstrap(),
                "--entity-type",
                "clients",
                "--entity-name",
                "app-2",
                "--alter",
                "--add-config",
                "producer_byte_rate=fast");
        assertFalse(notANumber.succeeded(), notANumber::describe);
        assertTrue(
                notANumber.describe().contains("Cannot parse quota configuration value for producer_byte_rate: fast"),
                notANumber::describe);
        ProcessResult unknownKey = tool(
                "kafka.admin.ConfigCommand",
                cluster.bootstrap(),
                "--entity-type",
                "clients",
                "--entity-name",
                "app-2",
                "--alter",
                "--add-config",
                "producer_rate=5");
        assertFalse(unknownKey.succeeded(), unknownKey::describe);
        assertTrue(
                unknownKey
                        .describe()
                        .contains("Only quota configs can be added for 'clients' using --bootstrap-server. "
                                + "Unexpected config names: Set(producer_rate)"),
                unknownKey::describe);

        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            assertEquals(
                    Map.of(entity(ClientQuotaEntity.CLIENT_ID, null), Map.of("consumer_byte_rate", 4096.0)),
                    describeAll(admin),
                    "only the default client-id quota is left; nothing refused was stored");
        }
    }

    @Test
    void shouldKeepUserQuotasAndRefuseBadInputWithKafkasErrors() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.broker(nonController()).bootstrap())) {
            ClientQuotaEntity aliceApp = entity(ClientQuotaEntity.USER, "alice", ClientQuotaEntity.CLIENT_ID, "app/1");
            ClientQuotaEntity defaultUser = entity(ClientQuotaEntity.USER, null);
            admin.alterClientQuotas(List.of(
                            new ClientQuotaAlteration(
                                    aliceApp, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 100.0))),
                            new ClientQuotaAlteration(
                                    defaultUser, List.of(new ClientQuotaAlteration.Op("request_percentage", 50.5)))))
                    .all()
                    .get();
            admin.alterClientQuotas(
                            List.of(new ClientQuotaAlteration(
                                    entity(ClientQuotaEntity.CLIENT_ID, "v"),
                                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 7.0)))),
                            new AlterClientQuotasOptions().validateOnly(true))
                    .all()
                    .get();
            Map<ClientQuotaEntity, Map<String, Double>> expected = Map.of(
                    aliceApp, Map.of("producer_byte_rate", 100.0), defaultUser, Map.of("request_percentage", 50.5));
            Poll.until("every broker describes the user quotas", SETTLE, () -> describeAll(admin), expected::equals);

            // Kafka's refusals: each INVALID_REQUEST with Kafka's message, nothing stored.
            assertRefused(
                    alterFails(admin, entity("group", "g"), op("producer_byte_rate", 1.0)),
                    "Unhandled client quota entity type: group");
            assertRefused(
                    alterFails(admin, entity(), op("producer_byte_rate", 1.0)), "Invalid empty client quota entity");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.CLIENT_ID, ""), op("producer_byte_rate", 1.0)),
                    "Empty client-id not supported");
            assertRefused(
                    alterFails(
                            admin,
                            entity(ClientQuotaEntity.IP, "10.0.0.1", ClientQuotaEntity.USER, "u"),
                            op("producer_byte_rate", 1.0)),
                    "IP entity should not be used with user/client ID entity");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.CLIENT_ID, "c"), op("producer_rate", 1.0)),
                    "Invalid configuration key producer_rate");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.CLIENT_ID, "c"), op("producer_byte_rate", -5.0)),
                    "Quota producer_byte_rate must be greater than 0");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.CLIENT_ID, "c"), op("consumer_byte_rate", 0.0)),
                    "Quota consumer_byte_rate must be greater than 0");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.CLIENT_ID, "c"), op("producer_byte_rate", 1.5)),
                    "producer_byte_rate cannot be a fractional value.");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.CLIENT_ID, "c"), op("controller_mutation_rate", 1.0)),
                    "controller_mutation_rate is not supported");
            assertRefused(
                    alterFails(admin, entity(ClientQuotaEntity.IP, "10.0.0.1"), op("connection_creation_rate", 5.0)),
                    "connection_creation_rate is not supported");

            ExecutionException custom = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeClientQuotas(ClientQuotaFilter.contains(
                                    List.of(ClientQuotaFilterComponent.ofEntityType("group"))))
                            .entities()
                            .get());
            assertInstanceOf(UnsupportedVersionException.class, custom.getCause());
            ExecutionException mixed = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeClientQuotas(ClientQuotaFilter.contains(List.of(
                                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.IP),
                                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER))))
                            .entities()
                            .get());
            assertRefused(mixed.getCause(), "IP filter component should not be used with user or clientId");

            assertEquals(expected, describeAll(admin), "nothing refused or validated only was stored");
            assertEquals(
                    Map.of(aliceApp, Map.of("producer_byte_rate", 100.0)),
                    admin.describeClientQuotas(ClientQuotaFilter.containsOnly(List.of(
                                    ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "alice"),
                                    ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.CLIENT_ID))))
                            .entities()
                            .get());
            assertEquals(
                    Map.of(defaultUser, Map.of("request_percentage", 50.5)),
                    admin.describeClientQuotas(ClientQuotaFilter.containsOnly(
                                    List.of(ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.USER))))
                            .entities()
                            .get());
        }
    }

    @Test
    void shouldDescribeFeaturesAsKafkaDoes() throws Exception {
        ProcessResult described = tool("org.apache.kafka.tools.FeatureCommand", cluster.bootstrap(), "describe");
        assertTrue(described.succeeded(), described::describe);
        assertEquals(
                "Feature: metadata.version\tSupportedMinVersion: 3.9-IV0\tSupportedMaxVersion: 3.9-IV0\t"
                        + "FinalizedVersionLevel: UNKNOWN 0\tEpoch: 0\n",
                described.stdoutText());
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            FeatureMetadata features =
                    admin.describeFeatures().featureMetadata().get();
            assertEquals(
                    Map.of("metadata.version", new SupportedVersionRange((short) 21, (short) 21)),
                    features.supportedFeatures());
            assertEquals(Map.of(), features.finalizedFeatures());
            assertEquals(Optional.of(0L), features.finalizedFeaturesEpoch());
        }
    }

    private static ClientQuotaAlteration.Op op(String key, double value) {
        return new ClientQuotaAlteration.Op(key, value);
    }

    private static void assertRefused(Throwable cause, String message) {
        assertInstanceOf(InvalidRequestException.class, cause);
        assertTrue(cause.getMessage().contains(message), cause.getMessage());
    }
}
