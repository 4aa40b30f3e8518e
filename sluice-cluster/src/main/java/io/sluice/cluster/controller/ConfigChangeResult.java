package io.sluice.cluster.controller;

/**
 * The outcome of one resource of a config change. Immutable; safe to share.
 *
 * @param resource the resource named in the request
 * @param error    NONE when the change was published (or, with validateOnly, would have been)
 * @param message  why not, null on success
 */
public record ConfigChangeResult(ConfigResource resource, ConfigError error, String message) {}
