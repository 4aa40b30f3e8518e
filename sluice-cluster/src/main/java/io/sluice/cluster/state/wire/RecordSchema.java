package io.sluice.cluster.state.wire;

/**
 * What the codec needs to know of one cluster-state record type besides its fields' values: the type id, the field
 * names in wire order (for error messages) and how many fields each schema version carries (fields are only ever
 * appended, so version {@code v} carries the first {@code fieldCount(v)}). One constant per record class.
 * Immutable; thread-safe.
 */
final class RecordSchema {
    private final int typeId;
    private final String[] fieldNames;
    private final int[] fieldCountOfOlderVersions;

    private RecordSchema(int typeId, int[] fieldCountOfOlderVersions, String[] fieldNames) {
        this.typeId = typeId;
        this.fieldCountOfOlderVersions = fieldCountOfOlderVersions;
        this.fieldNames = fieldNames;
    }

    /** A record whose every version carries every field. */
    static RecordSchema of(int typeId, String... fieldNames) {
        return new RecordSchema(typeId, new int[0], fieldNames);
    }

    /**
     * A record whose versions 0, 1, ... carry the first {@code fieldCountOfOlderVersions[version]} fields; the versions
     * after the table's end carry every field.
     */
    static RecordSchema grown(int typeId, int[] fieldCountOfOlderVersions, String... fieldNames) {
        return new RecordSchema(typeId, fieldCountOfOlderVersions.clone(), fieldNames);
    }

    int typeId() {
        return typeId;
    }

    int fieldCount(int version) {
        return version < fieldCountOfOlderVersions.length ? fieldCountOfOlderVersions[version] : fieldNames.length;
    }

    String fieldName(int index) {
        return index < fieldNames.length ? fieldNames[index] : "end";
    }
}
