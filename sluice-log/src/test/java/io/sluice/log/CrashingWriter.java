package io.sluice.log;

import java.nio.file.Path;

/**
 * A separate JVM that appends forever and prints "ACK lastOffset" after each acknowledged append, to be killed
 * with SIGKILL by {@link ProcessCrashTest}. Args: partition directory, flush.interval.messages.
 * Single-threaded.
 */
public final class CrashingWriter {
    private CrashingWriter() {}

    public static void main(String[] args) throws Exception {
        LogConfig config = LogConfig.builder()
                .segmentBytes(8192)
                .flushIntervalMessages(Long.parseLong(args[1]))
                .build();
        PartitionLog log = PartitionLog.open(Path.of(args[0]), config, new RecoveryReport());
        for (long i = 0; ; i++) {
            AppendResult result = log.appendAsLeader(
                    TestBatches.batch(1_000 + i, "v" + (2 * i), "v" + (2 * i + 1)), 0, System.currentTimeMillis());
            System.out.println("ACK " + result.lastOffset());
            System.out.flush();
        }
    }
}
