package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class BrokerConfigGarbageTest {

    @Property
    void shouldAcceptOrRefuseGarbageNamingTheKey(@ForAll("brokerKeys") String key, @ForAll String value) {
        try {
            BrokerConfig.fromMap(Map.of(key, value));
        } catch (ConfigException refused) {
            assertEquals(key, refused.key());
        }
    }

    @Property
    void shouldRefuseGarbageTopicOverridesNamingTheKey(@ForAll("topicKeys") String key, @ForAll String value) {
        try {
            TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of(key, value));
        } catch (ConfigException refused) {
            assertEquals(key, refused.key());
        }
    }

    /** Keys checked against another key (listeners) may be refused under that key's name. */
    @Provide
    Arbitrary<String> brokerKeys() {
        List<String> names = BrokerConfig.brokerKeys().stream()
                .map(ConfigKey::name)
                .filter(name -> !name.equals("advertised.listeners") && !name.equals("listener.security.protocol.map"))
                .toList();
        return Arbitraries.of(names);
    }

    @Provide
    Arbitrary<String> topicKeys() {
        return Arbitraries.of(
                TopicConfigKeys.all().stream().map(TopicConfigKey::name).toList());
    }
}
