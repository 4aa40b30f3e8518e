package io.sluice.codec.message;

/**
 * Element types of lists and maps. Immutable.
 */
public enum ElementType {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    DOUBLE,
    STRING,
    UUID,
    BYTE_ARRAY,
    ENDPOINT,
    MESSAGE
}
