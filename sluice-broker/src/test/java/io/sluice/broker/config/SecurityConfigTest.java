package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecurityConfigTest {
    private static final String JAAS =
            "org.apache.kafka.common.security.plain.PlainLoginModule required user_a=\"pw-1\";";

    @Test
    void shouldPreferListenerOverridesThenTheKeyThenItsDefault() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "listeners", "SASL_SSL://127.0.0.1:0",
                "ssl.keystore.location", "/base.p12",
                "listener.name.sasl_ssl.ssl.keystore.location", "/listener.p12",
                "ssl.client.auth", "requested",
                "listener.name.sasl_ssl.plain.sasl.jaas.config", JAAS,
                "sasl.jaas.config", "Other required;"));
        assertEquals("/listener.p12", config.listenerValue("SASL_SSL", "ssl.keystore.location"));
        assertEquals("/base.p12", config.listenerValue("OTHER", "ssl.keystore.location"));
        assertEquals("requested", config.listenerValue("SASL_SSL", "ssl.client.auth"));
        assertEquals("JKS", config.listenerValue("SASL_SSL", "ssl.keystore.type"));
        assertNull(config.listenerValue("SASL_SSL", "ssl.truststore.location"));
        assertEquals(JAAS, config.saslJaasConfig("SASL_SSL", "PLAIN"));
        assertEquals("Other required;", config.saslJaasConfig("SASL_SSL", "SCRAM-SHA-256"));
        assertTrue(config.unknownKeys().isEmpty(), config.unknownKeys().toString());
    }

    @Test
    void shouldValidateListenerOverridesLikeTheirKey() {
        ConfigException error = assertThrows(
                ConfigException.class,
                () -> BrokerConfig.fromMap(Map.of("listener.name.sasl_ssl.ssl.client.auth", "sometimes")));
        assertEquals("listener.name.sasl_ssl.ssl.client.auth", error.key());
        assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(Map.of("sasl.server.max.receive.size", "0")));
    }

    @Test
    void shouldNeverShowSecrets() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "ssl.keystore.password", "pw-2",
                "listener.name.sasl_ssl.ssl.key.password", "pw-3",
                "listener.name.sasl_ssl.plain.sasl.jaas.config", JAAS));
        String shown = config.toString();
        for (String secret : new String[] {"pw-1", "pw-2", "pw-3"}) {
            assertFalse(shown.contains(secret), shown);
        }
        for (ConfigEntry entry : TopicConfigs.describeBroker(config)) {
            if (entry.name().contains("password") || entry.name().contains("jaas")) {
                assertTrue(entry.sensitive(), entry.name());
                assertEquals(ConfigType.PASSWORD, entry.type(), entry.name());
            }
        }
    }
}
