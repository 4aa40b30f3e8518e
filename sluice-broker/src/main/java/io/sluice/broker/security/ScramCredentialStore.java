package io.sluice.broker.security;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ScramCredentialEntry;
import java.util.function.Supplier;

/**
 * Where a SCRAM login finds a user's stored credential besides the listener's JAAS accounts: the credentials
 * AlterUserScramCredentials stored in the cluster state this broker last applied, so a change reaches every broker's
 * next login as soon as it applies the delta.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface ScramCredentialStore {
    /** No stored credentials (a listener that knows only its JAAS accounts). */
    ScramCredentialStore NONE = (mechanism, user) -> null;

    /** The credential of {@code user} for {@code mechanism}, null when none is stored. */
    ScramCredential find(ScramMechanism mechanism, String user);

    /** The credentials of the newest applied cluster state. */
    static ScramCredentialStore ofCluster(Supplier<ClusterState> state) {
        return (mechanism, user) -> {
            ScramCredentialEntry e = state.get().scramCredentials().get(user, mechanism.kafkaType());
            return e == null ? null : new ScramCredential(e.salt(), e.storedKey(), e.serverKey(), e.iterations());
        };
    }
}
