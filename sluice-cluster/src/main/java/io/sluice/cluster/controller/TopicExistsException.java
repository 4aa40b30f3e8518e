package io.sluice.cluster.controller;

/**
 * createTopic for a name already taken. Immutable; safe to share.
 */
public final class TopicExistsException extends Exception {
    private static final long serialVersionUID = 1L;

    public TopicExistsException(String name, java.util.UUID existingId) {
        super("topic '" + name + "' already exists with id " + existingId);
    }
}
