package io.sluice.cluster.state;

import io.sluice.codec.error.MalformedInputException;
import java.util.Arrays;

/**
 * One user's SCRAM credential for one mechanism as the controller keeps it (Kafka's UserScramCredentialRecord): the
 * salt, StoredKey and ServerKey derived from the salted password (RFC 5802 section 3), and the iteration count. Neither
 * the password nor the salted password is kept: StoredKey and ServerKey let a broker check a login and prove itself,
 * not log in as the user. The mechanism is Kafka's code ({@code org.apache.kafka.clients.admin.ScramMechanism}: 1
 * SCRAM-SHA-256, 2 SCRAM-SHA-512), so this module needs no kafka-clients. Equality is by content.
 *
 * <p>Immutable (the arrays are copied in and never handed out); thread-safe.
 */
public final class ScramCredentialEntry {
    public static final byte SCRAM_SHA_256 = 1;
    public static final byte SCRAM_SHA_512 = 2;
    /** Longer salts or keys than this are not credentials (SHA-512 keys are 64 bytes; Kafka's salts 32). */
    public static final int MAX_BYTES = 1024;

    /** Who and which mechanism: at most one credential per key. */
    public record Key(String user, byte mechanism) implements Comparable<Key> {
        /** @throws MalformedInputException for an empty user name or an unknown mechanism */
        public Key {
            if (user == null || user.isEmpty()) {
                throw new MalformedInputException("SCRAM credential: empty user name");
            }
            if (mechanism != SCRAM_SHA_256 && mechanism != SCRAM_SHA_512) {
                throw new MalformedInputException(
                        "SCRAM credential of " + user + ": mechanism " + mechanism + " is neither " + SCRAM_SHA_256
                                + " (SCRAM-SHA-256) nor " + SCRAM_SHA_512 + " (SCRAM-SHA-512)");
            }
        }

        @Override
        public int compareTo(Key o) {
            int c = user.compareTo(o.user);
            return c != 0 ? c : Byte.compare(mechanism, o.mechanism);
        }
    }

    private final Key key;
    private final byte[] salt;
    private final byte[] storedKey;
    private final byte[] serverKey;
    private final int iterations;

    /** @throws MalformedInputException naming the field when a value is missing, empty, too long or not positive */
    public ScramCredentialEntry(Key key, byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
        this.key = key;
        this.salt = checked(key, "salt", salt);
        this.storedKey = checked(key, "storedKey", storedKey);
        this.serverKey = checked(key, "serverKey", serverKey);
        if (iterations <= 0) {
            throw new MalformedInputException(
                    "SCRAM credential of " + key.user() + ": iterations " + iterations + " is not positive");
        }
        this.iterations = iterations;
    }

    private static byte[] checked(Key key, String field, byte[] value) {
        if (value == null || value.length == 0 || value.length > MAX_BYTES) {
            throw new MalformedInputException("SCRAM credential of " + key.user() + ": " + field + " has "
                    + (value == null ? "no value" : value.length + " bytes") + " (1.." + MAX_BYTES + " expected)");
        }
        return value.clone();
    }

    public Key key() {
        return key;
    }

    public String user() {
        return key.user();
    }

    public byte mechanism() {
        return key.mechanism();
    }

    public byte[] salt() {
        return salt.clone();
    }

    public byte[] storedKey() {
        return storedKey.clone();
    }

    public byte[] serverKey() {
        return serverKey.clone();
    }

    public int iterations() {
        return iterations;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramCredentialEntry e
                && key.equals(e.key)
                && iterations == e.iterations
                && Arrays.equals(salt, e.salt)
                && Arrays.equals(storedKey, e.storedKey)
                && Arrays.equals(serverKey, e.serverKey);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(storedKey);
    }

    /** Names the user, mechanism and iterations; never the keys. */
    @Override
    public String toString() {
        return "ScramCredential{" + key.user() + ", mechanism " + key.mechanism() + ", iterations " + iterations + "}";
    }
}
