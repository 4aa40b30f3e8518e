package io.sluice.log.segment;

import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Finishes or discards what an interrupted clean left in a partition directory, before its segments are loaded, with
 * Kafka's rules: a {@code .cleaned} file is a clean not yet complete, and is deleted (the segments it would have
 * replaced are all still there); a {@code .log.swap} file is a complete, fsynced cleaned segment that was being swapped
 * in, so the old segments whose base offsets lie in its offset range are deleted and it is renamed into place (its
 * indexes are rebuilt by the load that follows). Either way the directory then holds a valid chain of segments.
 * Stateless; thread-safe (callers own the directory).
 */
public final class SwapRecovery {
    private SwapRecovery() {}

    /**
     * Applies the rules above to {@code dir}.
     *
     * @param report receives one line per file deleted or swap completed
     */
    public static void run(Path dir, Consumer<String> report) throws IOException {
        List<Path> swaps = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (name.endsWith(SegmentFileNames.CLEANED_SUFFIX)) {
                    Files.deleteIfExists(file);
                    report.accept("deleted " + dir.getFileName() + "/" + name + " of an interrupted clean");
                } else if (name.endsWith(SegmentFileNames.LOG_SUFFIX + SegmentFileNames.SWAP_SUFFIX)) {
                    swaps.add(file);
                } else if (name.endsWith(SegmentFileNames.SWAP_SUFFIX)) {
                    // index files of a swap: rebuilt from the log after the swap completes
                    Files.deleteIfExists(file);
                }
            }
        }
        swaps.sort(null);
        for (Path swap : swaps) {
            complete(dir, swap, report);
        }
        if (!swaps.isEmpty()) {
            io.sluice.log.checkpoint.AtomicFile.fsyncDirectory(dir);
        }
    }

    private static void complete(Path dir, Path swap, Consumer<String> report) throws IOException {
        String logName = SegmentFileNames.replaceSuffix(swap, SegmentFileNames.SWAP_SUFFIX, "")
                .getFileName()
                .toString();
        long base = SegmentFileNames.parseOffset(logName, SegmentFileNames.LOG_SUFFIX);
        if (base < 0) {
            Files.deleteIfExists(swap);
            report.accept("deleted " + dir.getFileName() + "/" + swap.getFileName() + ": not a segment name");
            return;
        }
        long next = nextOffset(swap, base);
        TreeSet<Long> replaced = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SegmentFileNames.LOG_SUFFIX)) {
            for (Path file : files) {
                long offset = SegmentFileNames.parseOffset(file.getFileName().toString(), SegmentFileNames.LOG_SUFFIX);
                if (offset >= base && (offset < next || offset == base)) {
                    replaced.add(offset);
                }
            }
        }
        for (long offset : replaced) {
            Files.deleteIfExists(SegmentFileNames.logFile(dir, offset));
            Files.deleteIfExists(SegmentFileNames.indexFile(dir, offset));
            Files.deleteIfExists(SegmentFileNames.timeIndexFile(dir, offset));
        }
        Files.deleteIfExists(SegmentFileNames.indexFile(dir, base));
        Files.deleteIfExists(SegmentFileNames.timeIndexFile(dir, base));
        Files.move(
                swap,
                SegmentFileNames.logFile(dir, base),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        report.accept("completed the swap of cleaned segment " + dir.getFileName() + "/" + logName + " replacing "
                + replaced.size() + " segments at offsets " + replaced);
    }

    /** The offset after the last whole batch of the swap file (its base offset when it holds none). */
    private static long nextOffset(Path swap, long base) throws IOException {
        BatchScanner scanner = new BatchScanner();
        long next = base;
        try (FileChannel channel = FileChannel.open(swap, StandardOpenOption.READ)) {
            long size = channel.size();
            long position = 0;
            RecordBatchView batch;
            while ((batch = scanner.readHeader(channel, position, size)) != null) {
                next = batch.lastOffset() + 1;
                position += batch.sizeInBytes();
            }
        }
        return next;
    }
}
