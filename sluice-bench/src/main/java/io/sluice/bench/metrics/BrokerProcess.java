package io.sluice.bench.metrics;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * One Sluice broker in its own JVM for {@link MetricsCostMeasurement}: {@code key=value} arguments are its
 * configuration; it prints {@code PORT <port>} once serving and runs until its parent ends it.
 *
 * <p>Not thread-safe; a main.
 */
public final class BrokerProcess {
    private BrokerProcess() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> props = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            props.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        SluiceBroker broker = SluiceBroker.start(BrokerConfig.fromMap(props));
        System.out.println("PORT " + broker.boundAddress().getPort());
        System.out.flush();
        broker.awaitShutdown();
    }
}
