package io.sluice.cluster.state.wire;

import io.sluice.codec.message.MessageRegistry;

/**
 * Type ids and registry of the cluster-state messages kept in ZooKeeper. Ids start at 100 (0..99 were the codec's
 * former sample cluster messages; never reuse them); ids are never reused, new fields are new schema versions
 * appended at the end and read only when the record's version has them. Stateless; {@link #REGISTRY} is immutable.
 */
public final class StateMessages {
    public static final int BROKER = 100;
    public static final int TOPIC = 101;
    public static final int PARTITION_CHANGE = 102;
    public static final int SNAPSHOT = 103;
    public static final int DELTA = 104;
    public static final int CONFIG = 105;
    public static final int ACL = 106;
    public static final int SCRAM = 107;

    public static final MessageRegistry REGISTRY = MessageRegistry.builder()
            .register(BROKER, "BrokerRecord", 0, BrokerRecord::new)
            .register(TOPIC, "TopicRecord", TopicRecord.CURRENT_VERSION, TopicRecord::new)
            .register(
                    PARTITION_CHANGE,
                    "PartitionChangeRecord",
                    PartitionChangeRecord.CURRENT_VERSION,
                    PartitionChangeRecord::new)
            .register(SNAPSHOT, "SnapshotRecord", SnapshotRecord.CURRENT_VERSION, SnapshotRecord::new)
            .register(DELTA, "DeltaRecord", DeltaRecord.CURRENT_VERSION, DeltaRecord::new)
            .register(CONFIG, "ConfigRecord", 0, ConfigRecord::new)
            .register(ACL, "AclRecord", 0, AclRecord::new)
            .register(SCRAM, "ScramRecord", 0, ScramRecord::new)
            .build();

    private StateMessages() {}
}
