package io.sluice.cli.rebalance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the assignment from a broker started in this JVM while topics come and go. */
class AssignmentTest {

    @TempDir
    Path dataDir;

    /**
     * "doomed" is deleted right after the topics are listed, before they are described: the reading leaves it out
     * and keeps "kept". Describing the listed names all at once failed the whole reading with
     * UnknownTopicOrPartitionException.
     */
    @Test
    void shouldLeaveOutATopicDeletedBetweenListingAndDescribing() throws Exception {
        try (SluiceBroker broker = SluiceBroker.start(BrokerConfig.fromMap(
                        Map.of("log.dirs", dataDir.toString(), "listeners", "PLAINTEXT://127.0.0.1:0")));
                DeletingAfterListing admin = new DeletingAfterListing(
                        "127.0.0.1:" + broker.boundAddress().getPort(), "doomed")) {
            admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1), new NewTopic("doomed", 1, (short) 1)))
                    .all()
                    .get();
            Assignment assignment = Assignment.read(admin);
            assertEquals(Set.of("doomed"), admin.deleted);
            assertEquals(Set.of("kept"), assignment.topics().keySet());
            assertEquals(2, assignment.topics().get("kept").partitions().size());
        }
    }

    /** A real admin client that deletes a topic once, just after it has listed the topics. Not thread-safe. */
    private static final class DeletingAfterListing extends ForwardingAdmin {
        private final String victim;
        private Set<String> deleted = Set.of();

        DeletingAfterListing(String bootstrap, String victim) {
            super(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
            this.victim = victim;
        }

        @Override
        public ListTopicsResult listTopics(ListTopicsOptions options) {
            ListTopicsResult listed = super.listTopics(options);
            if (deleted.isEmpty()) {
                try {
                    listed.names().get();
                    deleteTopics(List.of(victim)).all().get();
                } catch (Exception e) {
                    throw new IllegalStateException("could not delete " + victim, e);
                }
                deleted = Set.of(victim);
            }
            return listed;
        }
    }
}
