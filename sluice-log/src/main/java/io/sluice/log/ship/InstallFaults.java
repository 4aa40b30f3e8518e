package io.sluice.log.ship;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Called as an install of staged files ({@code PartitionLog.installStaged}) renames each one into the partition
 * directory; production passes {@link #NONE}, crash tests throw to stop the install exactly there and reopen the
 * directory. Called on the installing thread.
 */
@FunctionalInterface
public interface InstallFaults {
    InstallFaults NONE = file -> {};

    /** {@code file} was just renamed into the partition directory. */
    void movedIn(Path file) throws IOException;
}
