package io.sluice.testkit.cluster;

/**
 * One published piece of the cluster state in ZooKeeper (the head manifest, a snapshot's manifest or a delta) with
 * the controller epoch recorded in its content and the ZooKeeper transaction ids that created and last changed it.
 * Immutable.
 *
 * @param path            znode path relative to the chroot
 * @param createdZxid     zxid of the write that created it
 * @param modifiedZxid    zxid of the write that last set its data
 * @param controllerEpoch the epoch its content says it was written under
 */
public record StateZnode(String path, long createdZxid, long modifiedZxid, int controllerEpoch) {

    /** Whether the znode was created or changed by a write after the one with {@code zxid}. */
    public boolean writtenAfter(long zxid) {
        return createdZxid > zxid || modifiedZxid > zxid;
    }
}
