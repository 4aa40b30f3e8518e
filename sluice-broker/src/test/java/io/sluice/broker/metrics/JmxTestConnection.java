package io.sluice.broker.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A real JMX connection (RMI connector on 127.0.0.1, ephemeral port) to this JVM's platform MBean server, read as a
 * monitoring tool reads a broker. Not thread-safe; one per test class.
 */
final class JmxTestConnection implements AutoCloseable {
    private final JMXConnectorServer server;
    private final JMXConnector client;
    final MBeanServerConnection beans;

    @SuppressWarnings("BanJNDI") // a JMX client of this test's own connector on 127.0.0.1
    JmxTestConnection() throws IOException {
        server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, ManagementFactory.getPlatformMBeanServer());
        server.start();
        client = JMXConnectorFactory.connect(server.getAddress());
        beans = client.getMBeanServerConnection();
    }

    /** An attribute of the MBean named {@code objectName}, as a double (Kafka's gauges are numbers). */
    double number(String objectName, String attribute) throws Exception {
        return ((Number) beans.getAttribute(new ObjectName(objectName), attribute)).doubleValue();
    }

    boolean exists(String objectName) throws Exception {
        return beans.isRegistered(new ObjectName(objectName));
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.stop();
    }
}
