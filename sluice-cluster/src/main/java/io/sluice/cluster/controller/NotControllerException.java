package io.sluice.cluster.controller;

/**
 * A controller operation asked of a broker that is not the controller. Immutable; safe to share.
 */
public final class NotControllerException extends Exception {
    private static final long serialVersionUID = 1L;

    public NotControllerException(int brokerId, String operation) {
        super("broker " + brokerId + " is not the controller; " + operation + " must go to the controller");
    }
}
