package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner-offset-checkpoint file: round trip, and garbage or truncated files never stop a start. */
class CleanerCheckpointsTest {
    @TempDir
    Path dir;

    private final TopicPartitionKey orders = new TopicPartitionKey("orders", 3);

    @Test
    void shouldWriteAtomicallyAndReadBack() throws Exception {
        CleanerCheckpoints checkpoints = new CleanerCheckpoints(List.of(dir), new RecoveryReport());
        checkpoints.update(dir, orders, 1234);
        checkpoints.update(dir, new TopicPartitionKey("__consumer_offsets", 0), 7);
        CleanerCheckpoints reread = new CleanerCheckpoints(List.of(dir), new RecoveryReport());
        assertEquals(1234L, reread.get(dir, orders));
        reread.remove(dir, orders);
        assertNull(new CleanerCheckpoints(List.of(dir), new RecoveryReport()).get(dir, orders));
        assertEquals(
                7L,
                new CleanerCheckpoints(List.of(dir), new RecoveryReport())
                        .get(dir, new TopicPartitionKey("__consumer_offsets", 0)));
        assertTrue(Files.readString(dir.resolve(CleanerCheckpoints.FILE_NAME)).startsWith("0\n1\n"));
    }

    @Test
    void shouldIgnoreAFileCutAtAnyByte() throws Exception {
        CleanerCheckpoints checkpoints = new CleanerCheckpoints(List.of(dir), new RecoveryReport());
        checkpoints.update(dir, orders, 1234);
        checkpoints.update(dir, new TopicPartitionKey("payments", 0), 99);
        byte[] whole = Files.readAllBytes(dir.resolve(CleanerCheckpoints.FILE_NAME));
        for (int cut = 0; cut < whole.length; cut++) {
            Files.write(dir.resolve(CleanerCheckpoints.FILE_NAME), java.util.Arrays.copyOf(whole, cut));
            RecoveryReport report = new RecoveryReport();
            CleanerCheckpoints read = new CleanerCheckpoints(List.of(dir), report);
            Long offset = read.get(dir, orders);
            assertTrue(offset == null || offset == 1234L, "cut at " + cut + ": " + offset);
        }
    }

    @Test
    void shouldIgnoreGarbageAndForgedCounts() throws Exception {
        Random random = new Random(14);
        List<String> texts = new java.util.ArrayList<>(List.of(
                "0\n99999999999\norders 3 5\n",
                "0\n1\norders -3 5\n",
                "0\n1\norders 3 -5\n",
                "7\n0\n",
                "0\n1\norders 3 5 6\n",
                "0\n1\n" + "x".repeat(100_000) + " 3 5\n",
                "0\n2147483648\n",
                "\0\0\0\0"));
        for (int i = 0; i < 200; i++) {
            byte[] bytes = new byte[random.nextInt(64)];
            random.nextBytes(bytes);
            texts.add(new String(bytes, StandardCharsets.ISO_8859_1));
        }
        for (String text : texts) {
            Files.writeString(dir.resolve(CleanerCheckpoints.FILE_NAME), text, StandardCharsets.ISO_8859_1);
            RecoveryReport report = new RecoveryReport();
            CleanerCheckpoints read = new CleanerCheckpoints(List.of(dir), report);
            Long offset = read.get(dir, orders);
            assertTrue(offset == null || offset >= 0, text);
        }
    }
}
