package io.sluice.broker.security;

/**
 * What a server keeps of a SCRAM password (RFC 5802 section 3): the salt, the iteration count, StoredKey and ServerKey;
 * the password itself cannot be recovered from it.
 *
 * <p>Immutable (callers do not modify the arrays); thread-safe.
 */
public record ScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {}
