package io.sluice.cluster.controller;

import io.sluice.cluster.state.AclEntry;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.cluster.state.wire.AclRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.ScramRecord;
import java.util.List;

/**
 * The delta records of an ACL or SCRAM credential change: only what actually changes against the state (an entry
 * removed that exists, added that does not; a credential deleted that exists, set that differs). Stateless.
 */
final class SecurityDeltas {
    private SecurityDeltas() {}

    /** CreateAcls and DeleteAcls: adds to {@code delta} the removals, then the additions, that change {@code state}. */
    static void aclChanges(ClusterState state, List<AclEntry> add, List<AclEntry> remove, DeltaRecord delta) {
        for (AclEntry e : remove) {
            if (state.acls().contains(e)) {
                delta.removedAcls.add(AclRecord.of(e));
            }
        }
        for (AclEntry e : add) {
            if (!state.acls().contains(e)) {
                delta.addedAcls.add(AclRecord.of(e));
            }
        }
    }

    /** AlterUserScramCredentials: adds to {@code delta} the deletions, then the settings, that change {@code state}. */
    static void scramChanges(
            ClusterState state,
            List<ScramCredentialEntry> set,
            List<ScramCredentialEntry.Key> delete,
            DeltaRecord delta) {
        for (ScramCredentialEntry.Key k : delete) {
            if (state.scramCredentials().get(k.user(), k.mechanism()) != null) {
                delta.deletedScram.add(ScramRecord.deletion(k));
            }
        }
        for (ScramCredentialEntry e : set) {
            if (!e.equals(state.scramCredentials().get(e.user(), e.mechanism()))) {
                delta.setScram.add(ScramRecord.of(e));
            }
        }
    }
}
