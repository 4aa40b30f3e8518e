package io.sluice.broker.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicRegistryTest {
    @TempDir
    Path tmp;

    @Test
    void shouldPersistTopicsAcrossReloads() throws Exception {
        TopicRegistry registry = TopicRegistry.load(tmp, new ArrayList<>());
        TopicInfo orders = new TopicInfo("orders", Uuid.randomUuid(), 8, Map.of("retention.ms", "1000"));
        registry.put(orders);
        registry.put(new TopicInfo("gone", Uuid.randomUuid(), 1, Map.of()));
        registry.remove("gone");
        TopicRegistry reloaded = TopicRegistry.load(tmp, new ArrayList<>());
        assertEquals(orders, reloaded.byName("orders"));
        assertEquals(orders, reloaded.byId(orders.id()));
        assertNull(reloaded.byName("gone"));
    }

    @Test
    void shouldReportAndSkipGarbageTopicFiles() throws Exception {
        TopicRegistry registry = TopicRegistry.load(tmp, new ArrayList<>());
        registry.put(new TopicInfo("good", Uuid.randomUuid(), 2, Map.of()));
        Files.writeString(tmp.resolve("nopartitions.topic"), "id=" + Uuid.randomUuid() + "\n", StandardCharsets.UTF_8);
        Files.writeString(tmp.resolve("negative.topic"), "id=" + Uuid.randomUuid() + "\npartitions=-4\n", StandardCharsets.UTF_8);
        Files.writeString(tmp.resolve("badid.topic"), "id=not-a-uuid\npartitions=1\n", StandardCharsets.UTF_8);
        byte[] garbage = new byte[4096];
        new Random(7).nextBytes(garbage);
        Files.write(tmp.resolve("garbage.topic"), garbage);
        List<String> problems = new ArrayList<>();
        TopicRegistry reloaded = TopicRegistry.load(tmp, problems);
        assertEquals(1, reloaded.all().size());
        assertEquals(2, reloaded.byName("good").partitionCount());
        assertEquals(4, problems.size(), problems.toString());
    }
}
