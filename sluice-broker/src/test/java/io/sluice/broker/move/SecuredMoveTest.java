package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.START_MS;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.security.ListenerSecurity;
import io.sluice.log.PartitionLog;
import io.sluice.testkit.security.TestSecurity;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition moves on secured inter-broker listeners: the transfer connection logs in like replication does (TLS, then
 * SASL with sasl.mechanism.inter.broker.protocol), the source sends chunks through TLS (no sendfile there), and a
 * peer that has not logged in gets no move request served: its connection is closed and nothing is pinned.
 */
class SecuredMoveTest extends MoveTestBase {
    @TempDir
    static Path stores;

    static TestSecurity security;

    @BeforeAll
    static void makeStores() throws Exception {
        security = TestSecurity.create(stores.resolve("tls"));
    }

    private static BrokerConfig brokerConfig(String protocol, String mechanism) {
        Map<String, String> settings = new HashMap<>();
        for (String setting : security.brokerSettings(protocol, mechanism)) {
            int eq = setting.indexOf('=');
            settings.put(setting.substring(0, eq), setting.substring(eq + 1));
        }
        return BrokerConfig.fromMap(settings);
    }

    private Source securedServer(PartitionLog log, BrokerConfig config) throws Exception {
        return closing(new Source(
                log,
                MoveFixtures.moveConfig(),
                new AtomicLong(START_MS),
                ListenerSecurity.of(config, config.listeners().get(0))));
    }

    private void assertMovesOver(String protocol, String mechanism) throws Exception {
        BrokerConfig config = brokerConfig(protocol, mechanism);
        PartitionLog source = source("source");
        Source server = securedServer(source, config);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient client = new MoveTransferClient(
                MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED, ClientSecurity.interBroker(config));

        long end = client.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        assertEquals(boundaryOf(source), end);
        assertEquals(progress.totalBytes(), progress.bytesVerified());
        assertEquals(0, progress.chunksRejected());
        assertTrue(progress.chunksVerified() > 20, "many chunks: " + progress);
        MoveFixtures.assertSegmentsIdentical(source, target, end);
        assertEquals(source.leaderEpochs(), target.leaderEpochs());
        assertEquals(0, server.source.activeTransfers(), "pins released on completion");
    }

    @Test
    void shouldMoveOverSaslSslLoggedInWithPlain() throws Exception {
        assertMovesOver("SASL_SSL", "PLAIN");
    }

    @Test
    void shouldMoveOverSaslPlaintextLoggedInWithScram() throws Exception {
        assertMovesOver("SASL_PLAINTEXT", "SCRAM-SHA-512");
    }

    @Test
    void shouldMoveOverTls() throws Exception {
        assertMovesOver("SSL", "PLAIN");
    }

    @Test
    void shouldCloseAMoveRequestBeforeLoginAndPinNothing() throws Exception {
        BrokerConfig config = brokerConfig("SASL_PLAINTEXT", "PLAIN");
        PartitionLog source = source("source");
        Source server = securedServer(source, config);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient withoutLogin = new MoveTransferClient(
                MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED, ClientSecurity.plaintext());

        MoveException refused = assertThrows(
                MoveException.class,
                () -> withoutLogin.bootstrap(
                        target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));

        assertTrue(refused.getMessage().contains("no source"), refused.getMessage());
        assertEquals(0, server.source.activeTransfers(), "the open request was never served");
        assertEquals(0, progress.bytesShipped());
        assertEquals(0, target.logEndOffset());
    }
}
