package io.sluice.it;

import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Starts the broker a test class uses (in its own JVM, data under the class's temp dir) and, when the class is done,
 * stops it and keeps its log as {@code target/broker-logs/<TestClass>.log} for post-mortems.
 *
 * <p>Not thread-safe; used from a test class's {@code @BeforeAll}/{@code @AfterAll}.
 */
final class TestBroker {

    static final Path KEPT_LOGS = Path.of("target", "broker-logs");

    private TestBroker() {}

    static SluiceBrokerProcess start(Path tempDir, String... overrides) throws IOException {
        return SluiceBrokerProcess.start(tempDir.resolve("data"), overrides);
    }

    /** SIGTERM (then SIGKILL if needed) and copy the log; never throws, so other cleanup still runs. */
    static void stopAndKeepLog(SluiceBrokerProcess broker, Class<?> testClass) {
        if (broker == null) {
            return;
        }
        try {
            broker.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            broker.close();
        }
        try {
            Files.createDirectories(KEPT_LOGS);
            if (Files.exists(broker.logFile())) {
                Files.copy(
                        broker.logFile(),
                        KEPT_LOGS.resolve(testClass.getSimpleName() + ".log"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("could not keep broker log " + broker.logFile() + ": " + e);
        }
    }
}
