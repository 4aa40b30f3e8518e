package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerStartFailureTest {
    @TempDir
    Path dataDir;

    @Test
    void shouldReleaseWhatAFailedStartTookSoTheNextStartOnTheSameDirectorySucceeds() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // The listener's port is taken: the start fails late, after the log directories are locked, the embedded
            // ZooKeeper runs, the cluster is joined and the broker's threads are started.
            IOException failed = assertThrows(
                    IOException.class, () -> SluiceBroker.start(config("127.0.0.1:" + taken.getLocalPort())));
            assertNotNull(failed.getMessage());
        }
        try (SluiceBroker broker = SluiceBroker.start(config("127.0.0.1:0"))) {
            assertTrue(broker.boundAddress().getPort() > 0, "the second start serves on " + broker.boundAddress());
        }
    }

    private BrokerConfig config(String listenerAddress) {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dataDir.toString());
        props.put("listeners", "PLAINTEXT://" + listenerAddress);
        return BrokerConfig.fromMap(props);
    }
}
