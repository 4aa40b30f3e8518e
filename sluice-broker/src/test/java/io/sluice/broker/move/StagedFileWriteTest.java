package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.nio.file.ExtendedOpenOption;
import io.sluice.codec.SuppressForbidden;
import io.sluice.log.LogConfig;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * {@link StagedFile#write}: runs of any length, at any position, from buffers of any alignment, land byte for byte
 * whether whole blocks go with O_DIRECT or everything through the page cache; the O_DIRECT descriptor is used where
 * the temporary directory's file system takes it.
 */
class StagedFileWriteTest {
    private Path dir;

    @BeforeProperty
    void createDir() throws IOException {
        dir = Files.createTempDirectory("staged-write");
    }

    @AfterProperty
    void deleteDir() throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * Writes the runs one after the other from {@code start}, each from a buffer offset by {@code misalign} bytes
     * from a block boundary (0: aligned), and checks the file holds exactly the bytes written.
     */
    @Property(tries = 60)
    void shouldLandEveryByteWhateverTheAlignment(
            @ForAll @Size(min = 1, max = 8) List<@IntRange(min = 1, max = 3 * 4096 + 17) Integer> runs,
            @ForAll @IntRange(min = 0, max = 2) int startBlocks,
            @ForAll @IntRange(min = 0, max = 1) int startOffBoundary,
            @ForAll @IntRange(min = 0, max = 3) int misalign,
            @ForAll boolean directIo,
            @ForAll long seed)
            throws IOException {
        Path path = SegmentFileNames.logFile(dir, seed & 0xFFFF);
        Files.deleteIfExists(path);
        long start = startBlocks * 4096L + startOffBoundary * 100L;
        int total = runs.stream().mapToInt(Integer::intValue).sum();
        byte[] expected = new byte[(int) start + total];
        new Random(seed).nextBytes(expected);
        ByteBuffer buffer =
                ByteBuffer.allocateDirect(4 * 4096 + 2 * StagedWrites.ALIGNMENT).alignedSlice(StagedWrites.ALIGNMENT);
        try (StagedFile file = StagedFile.segment(
                path, 0, 0, expected.length, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), directIo)) {
            if (directIo && directIoSupported()) {
                assertEquals(true, file.writesDirect(), "O_DIRECT is available here but the file does not use it");
            }
            try (FileChannel prefix = FileChannel.open(path, StandardOpenOption.WRITE)) {
                prefix.write(ByteBuffer.wrap(expected, 0, (int) start), 0);
            }
            long at = start;
            for (int run : runs) {
                buffer.clear().position(misalign);
                buffer.put(expected, (int) at, run).flip().position(misalign);
                file.write(buffer, at);
                assertEquals(buffer.limit(), buffer.position(), "write took all of the run");
                at += run;
            }
        }
        assertArrayEquals(expected, Files.readAllBytes(path));
    }

    /**
     * Runs written through a transfer's {@link StagedWrites} (more runs than buffers, so buffers come back for reuse
     * only after their writes) land byte for byte once the file's writes are awaited.
     */
    @Property(tries = 10)
    void shouldLandRunsWrittenOnTheWriteThread(
            @ForAll @Size(min = 1, max = 9) List<@IntRange(min = 1, max = 3 * 4096 + 17) Integer> runs,
            @ForAll long seed)
            throws IOException {
        Path path = SegmentFileNames.logFile(dir, (seed & 0xFFFF) + 100_000);
        Files.deleteIfExists(path);
        int total = runs.stream().mapToInt(Integer::intValue).sum();
        byte[] expected = new byte[total];
        new Random(seed).nextBytes(expected);
        try (StagedWrites writes = new StagedWrites("test", false);
                StagedFile file = StagedFile.segment(
                        path, 0, 0, total, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            long at = 0;
            for (int run : runs) {
                ByteBuffer buffer = writes.take();
                buffer.put(expected, (int) at, run).flip();
                file.writeLater(buffer, at, writes);
                at += run;
            }
            file.awaitWrites();
            assertArrayEquals(expected, Files.readAllBytes(path));
        }
    }

    /** A write that fails on the write thread is reported to the transfer thread, never lost. */
    @Property(tries = 3)
    void shouldReportAFailedWrite(@ForAll @IntRange(min = 1, max = 4096) int run) throws IOException {
        Path path = SegmentFileNames.logFile(dir, 200_000 + run);
        Files.deleteIfExists(path);
        try (StagedWrites writes = new StagedWrites("test", false)) {
            StagedFile file =
                    StagedFile.segment(path, 0, 0, run, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), false);
            file.channel().close();
            ByteBuffer buffer = writes.take();
            buffer.put(new byte[run]).flip();
            file.writeLater(buffer, 0, writes);
            IOException failed = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, file::awaitWrites);
            org.junit.jupiter.api.Assertions.assertTrue(
                    failed.getMessage().contains(path.getFileName().toString()), failed.getMessage());
            org.junit.jupiter.api.Assertions.assertThrows(IOException.class, writes::take);
        }
    }

    /** A file that was opened with O_DIRECT writes whole blocks through it (checked against the plain descriptor). */
    @Property(tries = 5)
    void shouldUseODirectWhereTheFileSystemTakesIt(@ForAll @IntRange(min = 1, max = 4) int blocks) throws IOException {
        assumeTrue(directIoSupported(), "the temporary directory's file system refuses O_DIRECT");
        Path path = SegmentFileNames.logFile(dir, blocks);
        try (StagedFile file = StagedFile.segment(
                path, 0, 0, blocks * 4096L, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            assertEquals(true, file.writesDirect());
        }
        try (StagedFile file = StagedFile.segment(
                path, 0, 0, blocks * 4096L, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), false)) {
            assertEquals(false, file.writesDirect());
        }
    }

    @SuppressForbidden(reason = "probes whether the temporary directory takes O_DIRECT, as StagedFile does")
    private boolean directIoSupported() {
        Path probe = dir.resolve("probe");
        try (FileChannel ignored = FileChannel.open(
                probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            return Files.getFileStore(probe).getBlockSize() <= StagedWrites.ALIGNMENT;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
