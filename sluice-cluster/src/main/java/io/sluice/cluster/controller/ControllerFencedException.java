package io.sluice.cluster.controller;

/**
 * A controller write refused by ZooKeeper because a newer controller holds the epoch (the epoch znode's version moved
 * on): this broker is no longer the controller and nothing it tried landed. Immutable; safe to share.
 */
public final class ControllerFencedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int epoch;
    private final int epochZnodeVersion;

    public ControllerFencedException(int epoch, int epochZnodeVersion, String what) {
        super("controller epoch " + epoch + " is fenced: " + what + " refused, /controller_epoch is no longer at "
                + "znode version " + epochZnodeVersion + " (a newer controller was elected)");
        this.epoch = epoch;
        this.epochZnodeVersion = epochZnodeVersion;
    }

    /** The epoch this controller held. */
    public int epoch() {
        return epoch;
    }

    public int epochZnodeVersion() {
        return epochZnodeVersion;
    }
}
