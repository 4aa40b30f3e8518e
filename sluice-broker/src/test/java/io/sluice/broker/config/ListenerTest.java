package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ListenerTest {

    @Test
    void shouldParseHostPortAndEphemeralPort() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of("listeners", "PLAINTEXT://localhost:0"));
        assertEquals(List.of(new Listener("PLAINTEXT", "localhost", 0)), config.listeners());
    }

    @Test
    void shouldParseWildcardHostAndIpv6() {
        assertEquals(new Listener("PLAINTEXT", "", 9092), Listener.parse("listeners", "PLAINTEXT://:9092"));
        assertEquals(new Listener("PLAINTEXT", "::1", 9093), Listener.parse("listeners", "PLAINTEXT://[::1]:9093"));
        assertEquals("PLAINTEXT://[::1]:9093", new Listener("PLAINTEXT", "::1", 9093).toString());
        assertTrue(Listener.parse("listeners", "PLAINTEXT://:9092")
                .socketAddress()
                .getAddress()
                .isAnyLocalAddress());
    }

    @Test
    void shouldDefaultAdvertisedListenersToListeners() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "listeners", "PLAINTEXT://0.0.0.0:19092", "advertised.listeners", "PLAINTEXT://broker1.example:19092"));
        assertEquals(List.of(new Listener("PLAINTEXT", "broker1.example", 19092)), config.advertisedListeners());
        assertEquals(List.of(new Listener("PLAINTEXT", "0.0.0.0", 19092)), config.listeners());
    }

    @Test
    void shouldAcceptNamedListenerMappedToPlaintext() {
        BrokerConfig config = BrokerConfig.fromMap(
                Map.of("listeners", "CLIENT://127.0.0.1:9092", "listener.security.protocol.map", "CLIENT:PLAINTEXT"));
        assertEquals("CLIENT", config.listeners().get(0).name());
    }

    @Test
    void shouldRefuseSecurityProtocolsSluiceDoesNotImplement() {
        ConfigException error = assertThrows(
                ConfigException.class,
                () -> BrokerConfig.fromMap(
                        Map.of("listeners", "X://127.0.0.1:9093", "listener.security.protocol.map", "X:KERBEROS")));
        assertEquals("listeners", error.key());
        assertTrue(error.getMessage().contains("KERBEROS"), error.getMessage());
    }

    @Test
    void shouldRequireAKeyStoreOnTlsListeners() {
        ConfigException error = assertThrows(
                ConfigException.class, () -> BrokerConfig.fromMap(Map.of("listeners", "SSL://127.0.0.1:9093")));
        assertEquals("listener.name.ssl.ssl.keystore.location", error.key());
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "listeners", "SASL_SSL://127.0.0.1:9093", "listener.name.sasl_ssl.ssl.keystore.location", "/k.p12"));
        assertEquals(
                org.apache.kafka.common.security.auth.SecurityProtocol.SASL_SSL,
                config.securityProtocol(config.listeners().get(0)));
    }

    @Test
    void shouldRefuseMalformedListeners() {
        for (String bad : List.of(
                "127.0.0.1:9092",
                "PLAINTEXT://127.0.0.1",
                "PLAINTEXT://host:port",
                "PLAINTEXT://host:65536",
                "PLAINTEXT://host:-1",
                "PLAINTEXT://::1:9092",
                "://host:1",
                "PLAINTEXT://a:1,PLAINTEXT://b:2",
                "CONTROLLER://h:1")) {
            ConfigException error =
                    assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(Map.of("listeners", bad)), bad);
            assertEquals("listeners", error.key(), bad);
        }
    }

    @Test
    void shouldRefuseAdvertisedNameThatIsNotListened() {
        ConfigException error = assertThrows(
                ConfigException.class,
                () -> BrokerConfig.fromMap(Map.of(
                        "listeners", "PLAINTEXT://127.0.0.1:9092",
                        "advertised.listeners", "OTHER://h:9092",
                        "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,OTHER:PLAINTEXT")));
        assertEquals("advertised.listeners", error.key());
    }

    @Property
    void shouldEndGarbageInConfigExceptionOnly(@ForAll String garbage) {
        try {
            Listener.parse("listeners", garbage);
        } catch (ConfigException expected) {
            assertEquals("listeners", expected.key());
        }
    }

    @Property
    void shouldRoundTripPrintedListeners(@ForAll("ports") int port) {
        Listener listener = new Listener("PLAINTEXT", "10.0.0.1", port);
        assertEquals(listener, Listener.parse("listeners", listener.toString()));
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Integer> ports() {
        return net.jqwik.api.Arbitraries.integers().between(0, 65535);
    }
}
