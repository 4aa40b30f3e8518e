package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.TOPIC;

import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.log.PartitionLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** Temp directories, source logs and servers closed after each test. Not thread-safe; one per test instance. */
abstract class MoveTestBase {
    @TempDir
    Path root;

    private final List<AutoCloseable> closeLast = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closeLast.size() - 1; i >= 0; i--) {
            closeLast.get(i).close();
        }
    }

    <T extends AutoCloseable> T closing(T resource) {
        closeLast.add(resource);
        return resource;
    }

    PartitionLog source(String name) throws Exception {
        return closing(MoveFixtures.sourceLog(root.resolve(name).resolve(TOPIC + "-" + PARTITION)));
    }

    Source server(PartitionLog log) throws InterruptedException {
        return closing(Source.start(log));
    }

    Path targetDir() {
        return root.resolve("target").resolve(TOPIC + "-" + PARTITION);
    }

    PartitionLog emptyTarget() throws Exception {
        return closing(MoveFixtures.openLog(targetDir()));
    }

    static long boundaryOf(PartitionLog log) {
        long[] bases = log.segmentBaseOffsets();
        return bases[bases.length - 1];
    }
}
