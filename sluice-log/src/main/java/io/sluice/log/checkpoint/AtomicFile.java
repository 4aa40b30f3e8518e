package io.sluice.log.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Replaces a small file atomically (a temporary sibling, fsync, rename) and makes renames and creations in a directory
 * durable. Stateless; callers serialize writers.
 */
public final class AtomicFile {
    private AtomicFile() {}

    /** Writes the remaining bytes of {@code bytes} as the new content of {@code file}. */
    public static void write(Path file, ByteBuffer bytes) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Makes a rename or file creation in {@code dir} durable. */
    public static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some platforms cannot open directories; the rename is then only as durable as the OS makes it
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win")) {
                throw e;
            }
        }
    }
}
