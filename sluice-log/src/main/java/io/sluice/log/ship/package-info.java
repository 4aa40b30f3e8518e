/**
 * Shipping a partition log's files to a new replica (partition moves): the source side lists and pins closed
 * segments ({@link io.sluice.log.ship.ShippableLog}, {@link io.sluice.log.ship.SegmentPins}), the receiving side
 * installs verified staged files ({@link io.sluice.log.ship.StagedLog}) into an empty log. The transfer itself
 * (network, chunks, checksums, staging and resume) lives in {@code io.sluice.broker.move}.
 */
package io.sluice.log.ship;
