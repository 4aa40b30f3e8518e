package io.sluice.broker.api;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** A broker in the test's JVM on an ephemeral port with its data in a temp directory. Not thread-safe. */
public final class InProcessBroker implements AutoCloseable {
    public final SluiceBroker broker;

    public InProcessBroker(Path dataDir, Map<String, String> overrides) throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dataDir.toString());
        props.put("listeners", "PLAINTEXT://127.0.0.1:0");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(overrides);
        broker = SluiceBroker.start(BrokerConfig.fromMap(props));
    }

    public String bootstrap() {
        return "127.0.0.1:" + broker.boundAddress().getPort();
    }

    public Admin admin() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        return Admin.create(props);
    }

    @Override
    public void close() {
        broker.close();
    }
}
