package io.sluice.it;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Creates the topics a test writes to, through the Admin API, and waits for the broker to confirm.
 *
 * <p>Thread-safe; stateless.
 */
final class TestTopics {

    static final short REPLICATION_FACTOR = 1;
    private static final long CREATE_TIMEOUT_SECONDS = 30;

    private TestTopics() {}

    static void create(String bootstrap, String topic, int partitions)
            throws ExecutionException, InterruptedException, TimeoutException {
        try (Admin admin = TestClients.admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, REPLICATION_FACTOR)))
                    .all()
                    .get(CREATE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
