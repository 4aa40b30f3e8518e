package io.sluice.log.segment;

import java.io.IOException;

/**
 * Called as a clean reaches each {@link CleanStep}; production passes {@link #NONE}, crash tests throw to stop the clean
 * exactly there and reopen the directory. Implementations must be thread-safe (cleaner threads call them).
 */
@FunctionalInterface
public interface CleanFaults {
    CleanFaults NONE = step -> {};

    void reached(CleanStep step) throws IOException;
}
