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
        ByteBuffer buffer = ByteBuffer.allocateDirect(4 * 4096 + 2 * MoveConnection.PAYLOAD_ALIGNMENT)
                .alignedSlice(MoveConnection.PAYLOAD_ALIGNMENT);
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
            return Files.getFileStore(probe).getBlockSize() <= MoveConnection.PAYLOAD_ALIGNMENT;
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
