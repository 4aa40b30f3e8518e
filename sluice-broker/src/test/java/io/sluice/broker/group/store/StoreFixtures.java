package io.sluice.broker.group.store;

import java.util.List;

/** Group records the store tests write and expect back. Stateless; thread-safe. */
final class StoreFixtures {
    private StoreFixtures() {}

    static GroupRecord.OffsetCommit offset(String group, int partition, long offset) {
        return new GroupRecord.OffsetCommit(
                group, "topic", partition, offset, 3, "meta-" + offset, 1000L + offset, -1L);
    }

    static GroupRecord.GroupMetadata group(String group, int generation) {
        return new GroupRecord.GroupMetadata(
                group,
                "consumer",
                generation,
                "range",
                "m1",
                77L,
                List.of(
                        new GroupRecord.Member(
                                "m1", null, "client", "/10.0.0.1", 300000, 45000, new byte[] {1, 2}, new byte[] {3}),
                        new GroupRecord.Member(
                                "m2", "instance-2", "client", "/10.0.0.2", 300000, 45000, new byte[0], new byte[] {
                                    4, 5, 6
                                })));
    }

    /** The offset commit of {@code partition} among {@code records}, or null. */
    static GroupRecord.OffsetCommit only(List<GroupRecord> records, int partition) {
        return records.stream()
                .filter(r -> r instanceof GroupRecord.OffsetCommit c && c.partition() == partition)
                .map(r -> (GroupRecord.OffsetCommit) r)
                .findFirst()
                .orElse(null);
    }

    /** The group metadata among {@code records}, or null. */
    static GroupRecord.GroupMetadata metadata(List<GroupRecord> records) {
        return records.stream()
                .filter(r -> r instanceof GroupRecord.GroupMetadata)
                .map(r -> (GroupRecord.GroupMetadata) r)
                .findFirst()
                .orElse(null);
    }
}
