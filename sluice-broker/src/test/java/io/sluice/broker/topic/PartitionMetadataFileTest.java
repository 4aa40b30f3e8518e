package io.sluice.broker.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionMetadataFileTest {
    @TempDir
    Path dir;

    @Test
    void shouldRecordTheTopicIdInKafkasFormatAndRecogniseIt() throws Exception {
        Uuid id = Uuid.randomUuid();
        assertTrue(PartitionMetadataFile.belongsTo(dir, id), "a directory without the file is adopted");
        PartitionMetadataFile.write(dir, id);
        assertEquals(
                "version: 0\ntopic_id: " + id + "\n",
                Files.readString(dir.resolve(PartitionMetadataFile.FILE_NAME), StandardCharsets.UTF_8));
        assertTrue(PartitionMetadataFile.belongsTo(dir, id));
        assertFalse(PartitionMetadataFile.belongsTo(dir, Uuid.randomUuid()), "another topic of the same name");
        assertFalse(Files.exists(dir.resolve(PartitionMetadataFile.FILE_NAME + ".tmp")));
    }

    @Test
    void shouldTreatGarbageTruncationAndHugeFilesAsAnotherTopicsLog() throws Exception {
        Uuid id = Uuid.randomUuid();
        Path file = dir.resolve(PartitionMetadataFile.FILE_NAME);
        String valid = "version: 0\ntopic_id: " + id + "\n";
        for (int cut = 0; cut < valid.length() - 1; cut++) {
            Files.writeString(file, valid.substring(0, cut), StandardCharsets.UTF_8);
            assertFalse(PartitionMetadataFile.belongsTo(dir, id), "truncated at " + cut);
        }
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[random.nextInt(64)];
            random.nextBytes(garbage);
            Files.write(file, garbage);
            assertFalse(PartitionMetadataFile.belongsTo(dir, id), "garbage case " + i);
        }
        Files.write(file, new byte[1 << 20]);
        assertFalse(PartitionMetadataFile.belongsTo(dir, id), "a huge file is not read");
    }
}
