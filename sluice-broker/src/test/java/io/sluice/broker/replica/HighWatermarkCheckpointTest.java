package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.log.TopicPartitionKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** High watermarks survive a restart per log directory; a damaged checkpoint counts as empty, never fatal. */
class HighWatermarkCheckpointTest {
    @TempDir
    Path root;

    @Test
    void shouldRestoreWhatEachLogDirectoryCheckpointed() throws Exception {
        Path one = Files.createDirectories(root.resolve("one"));
        Path two = Files.createDirectories(root.resolve("two"));
        HighWatermarkCheckpoint checkpoint = new HighWatermarkCheckpoint(List.of(one, two));
        checkpoint.write(Map.of(
                one, Map.of(new TopicPartitionKey("a", 0), 17L), two, Map.of(new TopicPartitionKey("b", 3), 42L)));

        Map<TopicPartitionKey, Long> restored = new HighWatermarkCheckpoint(List.of(one, two)).readAll();

        assertEquals(Map.of(new TopicPartitionKey("a", 0), 17L, new TopicPartitionKey("b", 3), 42L), restored);
        assertEquals("0\n1\nb 3 42\n", Files.readString(two.resolve(HighWatermarkCheckpoint.FILE_NAME)));
    }

    @Test
    void shouldTreatAGarbledOrTruncatedCheckpointAsEmpty() throws Exception {
        Path dir = Files.createDirectories(root.resolve("d"));
        for (String garbage :
                List.of("0\n2\na 0 5\n", "banana", "0\n1\na 0 -5\n", "0\n99999999999\n", "\u0000\u0001")) {
            Files.writeString(dir.resolve(HighWatermarkCheckpoint.FILE_NAME), garbage, StandardCharsets.UTF_8);
            assertEquals(Map.of(), new HighWatermarkCheckpoint(List.of(dir)).readAll(), garbage);
        }
    }
}
