package io.sluice.testkit.cluster;

/**
 * What {@code /controller_epoch} says at one moment. Immutable.
 *
 * @param brokerId     the controller's broker id, -1 before any election
 * @param epoch        the controller epoch
 * @param modifiedZxid ZooKeeper transaction id of the write that set this epoch: every znode a controller of this
 *                     epoch writes afterwards has a higher zxid
 */
public record ControllerRecord(int brokerId, int epoch, long modifiedZxid) {}
