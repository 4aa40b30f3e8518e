package io.sluice.cluster.controller;

import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.cluster.state.ScramCredentials;
import java.util.List;

/**
 * A change to the SCRAM credentials (Kafka's AlterUserScramCredentials), decided on the controller thread against the
 * published credentials, so a deletion of a credential that does not exist is seen as such there and then.
 *
 * <p>Implementations run on the controller's single thread; they must not block.
 *
 * @param <T> the answer the request gets (per-user results)
 */
@FunctionalInterface
public interface ScramChange<T> {
    /**
     * Fills {@code set} and {@code delete} from {@code current} and returns the answer. Setting a credential replaces
     * the user's credential of that mechanism; deleting one that does not exist changes nothing.
     */
    T decide(ScramCredentials current, List<ScramCredentialEntry> set, List<ScramCredentialEntry.Key> delete);
}
