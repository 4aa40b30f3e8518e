package io.sluice.it;

import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.security.TestSecurity;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One broker per security protocol (its only listener), started on first use with {@link TestSecurity}'s settings
 * and stopped together, for test classes that try every protocol.
 *
 * <p>Not thread-safe; one per test class, driven by the test thread.
 */
final class SecureBrokers implements AutoCloseable {
    private final Path dir;
    private final TestSecurity security;
    private final Class<?> testClass;
    private final Map<String, SluiceBrokerProcess> brokers = new HashMap<>();

    SecureBrokers(Path dir, Class<?> testClass) throws Exception {
        this.dir = dir;
        this.testClass = testClass;
        this.security = TestSecurity.create(dir.resolve("tls"));
    }

    TestSecurity security() {
        return security;
    }

    /** The broker whose listener is {@code protocol} (SSL, SASL_PLAINTEXT or SASL_SSL). */
    SluiceBrokerProcess broker(String protocol) throws Exception {
        SluiceBrokerProcess broker = brokers.get(protocol);
        if (broker == null) {
            broker = TestBroker.start(
                    dir.resolve(protocol.toLowerCase(Locale.ROOT)),
                    security.brokerSettings(protocol, "PLAIN").toArray(new String[0]));
            brokers.put(protocol, broker);
        }
        return broker;
    }

    @Override
    public void close() {
        brokers.values().forEach(broker -> TestBroker.stopAndKeepLog(broker, testClass));
    }
}
