package io.sluice.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.testkit.Poll;
import io.sluice.testkit.security.TestSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The forwarder of requests to the controller (kafka-clients' admin client) reaches a controller whose inter-broker
 * listener is SASL_SSL: it connects with that listener's trust store and logs in with the broker's own SCRAM login,
 * and the topic it asks for is created. Without the listener's security it could not connect at all.
 */
class SecuredForwarderTest {
    @TempDir
    Path dir;

    @Test
    void shouldForwardOverASaslSslInterBrokerListener() throws Exception {
        TestSecurity security = TestSecurity.create(dir.resolve("tls"));
        Map<String, String> props = new HashMap<>();
        for (String setting : security.brokerSettings("SASL_SSL", "SCRAM-SHA-512")) {
            int eq = setting.indexOf('=');
            props.put(setting.substring(0, eq), setting.substring(eq + 1));
        }
        props.put("log.dirs", dir.resolve("data").toString());
        props.put("sasl.enabled.mechanisms", "SCRAM-SHA-512,PLAIN");
        BrokerConfig config = BrokerConfig.fromMap(props);
        Map<String, Object> clientSecurity = ClientSecurity.kafkaClientProperties(config);
        assertEquals("SASL_SSL", clientSecurity.get("security.protocol"));
        assertEquals("SCRAM-SHA-512", clientSecurity.get("sasl.mechanism"));
        try (SluiceBroker broker = SluiceBroker.start(config);
                ControllerForwarder forwarder = new ControllerForwarder(broker.cluster(), clientSecurity, 15_000)) {
            forwarder.createTopicAsync("forwarded", 2);
            Properties client = new Properties();
            client.put(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + broker.boundAddress().getPort());
            client.putAll(security.clientProperties("SASL_SSL", "PLAIN", TestSecurity.PASSWORD, false));
            try (Admin admin = Admin.create(client)) {
                Poll.until(
                        "the forwarded topic exists",
                        Duration.ofSeconds(60),
                        () -> admin.listTopics().names().get(),
                        (Set<String> names) -> names.contains("forwarded"));
            }
        }
    }
}
