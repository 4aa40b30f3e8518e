package io.sluice.broker.group.store;

import java.io.IOException;
import java.util.List;

/**
 * Durable home of consumer-group metadata and committed offsets. An append returns only once the records are
 * durable; {@link #load()} returns the latest non-tombstoned record per key. Implementations are thread-safe.
 */
public interface GroupStore extends AutoCloseable {

    /**
     * Reads everything stored, repairing a torn tail if the last write was interrupted.
     *
     * @return the live records (latest per key, tombstoned keys omitted), in no particular order
     */
    List<GroupRecord> load() throws IOException;

    /**
     * Appends the records of one group atomically: after a crash either all of them are reloaded or none.
     *
     * @throws IllegalArgumentException if a record belongs to another group than {@code groupId}
     */
    void append(String groupId, List<? extends GroupRecord> records) throws IOException;

    @Override
    void close() throws IOException;
}
