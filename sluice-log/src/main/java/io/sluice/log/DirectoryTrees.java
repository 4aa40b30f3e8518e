package io.sluice.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deleting a directory with everything in it (a partition directory). Stateless; thread-safe. */
final class DirectoryTrees {
    private DirectoryTrees() {}

    /** Deletes {@code dir} and everything below it, deepest first; nothing when it does not exist. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
