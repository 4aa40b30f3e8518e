package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpListenerAddressTest {
    @Test
    void shouldBindABarePortToLoopback() {
        assertEquals(new HttpListenerAddress("127.0.0.1", 9644), HttpListenerAddress.parse("9644"));
    }

    @Test
    void shouldTakeHostAndPortAndBracketedIpv6() {
        assertEquals(new HttpListenerAddress("0.0.0.0", 9644), HttpListenerAddress.parse("0.0.0.0:9644"));
        assertEquals(new HttpListenerAddress("::1", 0), HttpListenerAddress.parse("[::1]:0"));
    }

    @Test
    void shouldRefuseWhatIsNoAddressNamingTheKey() {
        for (String bad : new String[] {"", "abc", "host:", ":9644", "host:70000", "host:-1", "host:port"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> HttpListenerAddress.parse(bad), bad);
            assertEquals(BrokerConfigKeys.HTTP_LISTENER, e.key(), bad);
        }
    }

    @Test
    void shouldBeOffByDefaultAndCheckedWhenTheConfigurationLoads() {
        assertTrue(BrokerConfig.fromMap(Map.of()).httpListener().isEmpty());
        assertEquals(
                new HttpListenerAddress("127.0.0.1", 9644),
                BrokerConfig.fromMap(Map.of("sluice.http.listener", "9644"))
                        .httpListener()
                        .orElseThrow());
        assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(Map.of("sluice.http.listener", "nine")));
    }
}
