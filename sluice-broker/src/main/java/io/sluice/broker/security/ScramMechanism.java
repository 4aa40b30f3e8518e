package io.sluice.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The two SCRAM mechanisms Kafka offers (RFC 5802 with RFC 7677's SHA-256, and SHA-512) and their primitives on the
 * JDK's {@link Mac}, {@link MessageDigest} and PBKDF2 {@link SecretKeyFactory}: Hi, the client and server keys, and the
 * proof arithmetic.
 *
 * <p>Immutable; thread-safe (every call makes its own JCA objects).
 */
public enum ScramMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", (byte) 1, "SHA-256", "HmacSHA256", "PBKDF2WithHmacSHA256"),
    SCRAM_SHA_512("SCRAM-SHA-512", (byte) 2, "SHA-512", "HmacSHA512", "PBKDF2WithHmacSHA512");

    /** Kafka's floor (and default) for SCRAM iterations. */
    public static final int MIN_ITERATIONS = 4096;
    /** Kafka's ceiling for SCRAM iterations a credential may be stored with (AlterUserScramCredentials). */
    public static final int MAX_ITERATIONS = 16384;

    private static final int SALT_BYTES = 32;
    private static final byte[] CLIENT_KEY = "Client Key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_KEY = "Server Key".getBytes(StandardCharsets.US_ASCII);

    private final String mechanismName;
    private final byte kafkaType;
    private final String digest;
    private final String mac;
    private final String pbkdf2;

    ScramMechanism(String mechanismName, byte kafkaType, String digest, String mac, String pbkdf2) {
        this.mechanismName = mechanismName;
        this.kafkaType = kafkaType;
        this.digest = digest;
        this.mac = mac;
        this.pbkdf2 = pbkdf2;
    }

    public String mechanismName() {
        return mechanismName;
    }

    /** Kafka's code of this mechanism ({@code org.apache.kafka.clients.admin.ScramMechanism#type()}). */
    public byte kafkaType() {
        return kafkaType;
    }

    /** The mechanism with Kafka's code {@code type}, or null (0 is Kafka's UNKNOWN). */
    public static ScramMechanism forKafkaType(byte type) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.kafkaType == type) {
                return mechanism;
            }
        }
        return null;
    }

    /** The mechanism named {@code name} (e.g. SCRAM-SHA-256), or null. */
    public static ScramMechanism forName(String name) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.mechanismName.equals(name)) {
                return mechanism;
            }
        }
        return null;
    }

    /** Derives the stored credential of {@code password} with a fresh random salt. */
    public ScramCredential credential(String password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        byte[] salted = saltedPassword(password, salt, iterations);
        return new ScramCredential(salt, hash(hmac(salted, CLIENT_KEY)), hmac(salted, SERVER_KEY), iterations);
    }

    /**
     * The stored credential of a salted password (Hi(password, salt, i), as AlterUserScramCredentials carries it): the
     * salted password itself is not kept.
     */
    public ScramCredential credentialOfSaltedPassword(byte[] salt, byte[] saltedPassword, int iterations) {
        return new ScramCredential(
                salt.clone(), hash(clientKey(saltedPassword)), serverKey(saltedPassword), iterations);
    }

    /**
     * Whether {@code password} is the one {@code stored} was derived from: H(HMAC(Hi(password, salt, i), "Client Key"))
     * equals StoredKey, compared in constant time (the HTTP listener's Basic login checks SCRAM users this way).
     */
    public boolean verifies(ScramCredential stored, String password) {
        byte[] salted = saltedPassword(password, stored.salt(), stored.iterations());
        return MessageDigest.isEqual(hash(clientKey(salted)), stored.storedKey());
    }

    /** Hi(password, salt, i) of RFC 5802: PBKDF2 with this mechanism's HMAC, one hash long. */
    byte[] saltedPassword(String password, byte[] salt, int iterations) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, hashLength() * Byte.SIZE);
            try {
                return SecretKeyFactory.getInstance(pbkdf2).generateSecret(spec).getEncoded();
            } finally {
                spec.clearPassword();
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(pbkdf2 + " is not available in this JDK", e);
        }
    }

    byte[] clientKey(byte[] saltedPassword) {
        return hmac(saltedPassword, CLIENT_KEY);
    }

    byte[] serverKey(byte[] saltedPassword) {
        return hmac(saltedPassword, SERVER_KEY);
    }

    byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac m = Mac.getInstance(mac);
            m.init(new SecretKeySpec(key, mac));
            return m.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(mac + " is not available in this JDK", e);
        }
    }

    byte[] hash(byte[] message) {
        try {
            return MessageDigest.getInstance(digest).digest(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(digest + " is not available in this JDK", e);
        }
    }

    int hashLength() {
        return this == SCRAM_SHA_256 ? 32 : 64;
    }

    static byte[] xor(byte[] a, byte[] b) {
        if (a.length != b.length) {
            return new byte[0];
        }
        byte[] out = Arrays.copyOf(a, a.length);
        for (int i = 0; i < out.length; i++) {
            out[i] ^= b[i];
        }
        return out;
    }
}
