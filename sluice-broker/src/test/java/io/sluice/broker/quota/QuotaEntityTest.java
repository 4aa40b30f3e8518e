package io.sluice.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.broker.config.ClientQuotaKeys;
import io.sluice.cluster.controller.ConfigRefusedException;
import io.sluice.cluster.controller.ConfigResource;
import java.util.AbstractMap.SimpleEntry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Quota entities and values as Kafka checks and stores them: names, ZooKeeper paths, refusals and stored text. */
class QuotaEntityTest {
    private static List<Map.Entry<String, String>> entity(String... typesAndNames) {
        List<Map.Entry<String, String>> out = new java.util.ArrayList<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            out.add(new SimpleEntry<>(typesAndNames[i], typesAndNames[i + 1]));
        }
        return out;
    }

    @Test
    void shouldNameEntitiesAsKafkasZooKeeperModeAndBack() throws Exception {
        QuotaEntity userClient = QuotaEntity.parse(entity("client-id", "app/1", "user", "CN=alice,O=x"));
        ConfigResource resource = userClient.resource();
        assertEquals(new ConfigResource(ConfigResource.Type.USER, "CN%3Dalice%2CO%3Dx/clients/app%2F1"), resource);
        assertEquals(userClient, QuotaEntity.ofResource(resource));
        assertEquals(
                List.of(new SimpleEntry<>("user", "CN=alice,O=x"), new SimpleEntry<>("client-id", "app/1")),
                userClient.entries());
        QuotaEntity defaults = QuotaEntity.parse(entity("client-id", null));
        assertEquals("clients/<default>", defaults.resource().quotaPath());
        assertEquals(
                "clients/%3Cdefault%3E",
                QuotaEntity.parse(entity("client-id", "<default>")).resource().quotaPath(),
                "a client really named <default> is not the default");
        assertEquals(
                "ips/10.0.0.1",
                QuotaEntity.parse(entity("ip", "10.0.0.1")).resource().quotaPath());
        assertNull(QuotaEntity.ofPath("topics/x"));
        assertNull(QuotaEntity.ofPath("users/a/groups/b"));
    }

    @Test
    void shouldRefuseEntitiesAsKafkaDoes() {
        Map<List<Map.Entry<String, String>>, String> refused = Map.of(
                entity(),
                "Invalid empty client quota entity",
                entity("group", "g"),
                "Unhandled client quota entity type: group",
                entity("user", "a", "user", "b"),
                "Invalid client quota entity, duplicate entity entry user",
                entity("user", ""),
                "Empty user not supported",
                entity("ip", "1.2.3.4", "client-id", "c"),
                "Invalid quota entity combination, IP entity should not be used with user/client ID entity.");
        refused.forEach((e, message) -> assertEquals(
                message,
                assertThrows(QuotaEntity.InvalidEntityException.class, () -> QuotaEntity.parse(e))
                        .getMessage()));
    }

    @Test
    void shouldCheckAndStoreValuesAsKafkaDoes() throws Exception {
        assertEquals("1048576", ClientQuotaKeys.textOf(ConfigResource.Type.CLIENT, "producer_byte_rate", 1048576.0));
        assertEquals("50.5", ClientQuotaKeys.textOf(ConfigResource.Type.USER, "request_percentage", 50.5));
        Map<Object[], String> refused = Map.of(
                new Object[] {"producer_byte_rate", -1.0}, "Quota producer_byte_rate must be greater than 0",
                new Object[] {"consumer_byte_rate", 0.0}, "Quota consumer_byte_rate must be greater than 0",
                new Object[] {"request_percentage", Double.NaN}, "Quota request_percentage must be greater than 0",
                new Object[] {"producer_byte_rate", 2.5}, "producer_byte_rate cannot be a fractional value.",
                new Object[] {"producer_byte_rate", 1e300},
                        "Proposed value for producer_byte_rate is too large for a LONG.",
                new Object[] {"fetch_rate", 1.0}, "Invalid configuration key fetch_rate");
        refused.forEach((op, message) -> assertEquals(
                message,
                assertThrows(
                                ConfigRefusedException.class,
                                () -> ClientQuotaKeys.textOf(
                                        ConfigResource.Type.CLIENT, (String) op[0], (Double) op[1]))
                        .getMessage()));
        assertThrows(
                ConfigRefusedException.class,
                () -> ClientQuotaKeys.textOf(ConfigResource.Type.IP, "connection_creation_rate", 5));
        ClientQuotaKeys.checkStored(ConfigResource.Type.CLIENT, "producer_byte_rate", "1024");
        assertThrows(
                ConfigRefusedException.class,
                () -> ClientQuotaKeys.checkStored(ConfigResource.Type.CLIENT, "producer_byte_rate", "1024.5"));
        assertThrows(
                ConfigRefusedException.class,
                () -> ClientQuotaKeys.checkStored(ConfigResource.Type.CLIENT, "producer_byte_rate", "fast"));
    }
}
