/**
 * Raw access to buffer memory for the few loops that prove their bounds once instead of per byte
 * (message fields in {@code io.sluice.codec.message}, record layout runs in sluice-record).
 */
package io.sluice.codec.memory;
