package io.sluice.cluster.zk;

import java.util.Locale;

/**
 * The znodes Sluice uses, relative to the chroot. Stateless.
 *
 * <pre>
 * /brokers/ids/&lt;id&gt;                       ephemeral, one per live broker (BrokerRecord bytes)
 * /controller_election/...                   Curator LeaderLatch participants
 * /controller_epoch                          epoch and controller id (ControllerEpochDescriptor); its znode
 *                                            version guards every controller write
 * /cluster/id                                the cluster id (UTF-8), written once by the first broker
 * /latest_producer_id_block                  first producer id not yet reserved by any broker (8 bytes)
 * /cluster/state                             its data version guards every delta append (each sets it), so a
 *                                            write sent again after a lost reply cannot add a delta twice
 * /cluster/state/head                        manifest of the current snapshot (SnapshotManifestDescriptor)
 * /cluster/state/snapshot-&lt;n&gt;/manifest       manifest of snapshot n
 * /cluster/state/snapshot-&lt;n&gt;/part-&lt;i&gt;     compressed snapshot bytes, cut below jute.maxbuffer
 * /cluster/state/delta-&lt;seq&gt;                one published change (sequential)
 * </pre>
 */
public final class ZkPaths {
    public static final String BROKER_IDS = "/brokers/ids";
    public static final String CONTROLLER_ELECTION = "/controller_election";
    public static final String CONTROLLER_EPOCH = "/controller_epoch";
    public static final String CLUSTER_ID = "/cluster/id";
    public static final String PRODUCER_ID_BLOCK = "/latest_producer_id_block";
    public static final String STATE = "/cluster/state";
    public static final String STATE_HEAD = STATE + "/head";
    public static final String DELTA_PREFIX = "delta-";
    public static final String SNAPSHOT_PREFIX = "snapshot-";
    public static final String PART_PREFIX = "part-";
    public static final String MANIFEST = "manifest";

    private ZkPaths() {}

    public static String broker(int brokerId) {
        return BROKER_IDS + "/" + brokerId;
    }

    public static String snapshotDir(long snapshotId) {
        return STATE + "/" + SNAPSHOT_PREFIX + snapshotId;
    }

    public static String snapshotPart(long snapshotId, int index) {
        return snapshotDir(snapshotId) + "/" + PART_PREFIX + index;
    }

    public static String snapshotManifest(long snapshotId) {
        return snapshotDir(snapshotId) + "/" + MANIFEST;
    }

    /** Sequence number of a delta child name, or -1 when the name is not a delta. */
    public static long deltaSeq(String childName) {
        if (!childName.startsWith(DELTA_PREFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(childName.substring(DELTA_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Snapshot id of a snapshot child name, or -1 when the name is not a snapshot. */
    public static long snapshotId(String childName) {
        if (!childName.startsWith(SNAPSHOT_PREFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(childName.substring(SNAPSHOT_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static String deltaName(long seq) {
        return String.format(Locale.ROOT, "%s%010d", DELTA_PREFIX, seq);
    }
}
