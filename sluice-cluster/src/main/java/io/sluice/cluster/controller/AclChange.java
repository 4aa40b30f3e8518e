package io.sluice.cluster.controller;

import io.sluice.cluster.state.AclEntry;
import java.util.List;
import java.util.NavigableSet;

/**
 * A change to the access control entries, decided on the controller thread against the published entries (Kafka's
 * CreateAcls adds; DeleteAcls removes what its filters match there and then, so nothing added meanwhile is missed).
 *
 * <p>Implementations run on the controller's single thread; they must not block.
 *
 * @param <T> the answer the request gets (per-filter results, per-creation results)
 */
@FunctionalInterface
public interface AclChange<T> {
    /**
     * Fills {@code add} and {@code remove} from {@code current} (read-only) and returns the answer. Adding an entry
     * that exists or removing one that does not changes nothing.
     */
    T decide(NavigableSet<AclEntry> current, List<AclEntry> add, List<AclEntry> remove);
}
