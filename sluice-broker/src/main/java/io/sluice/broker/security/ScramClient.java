package io.sluice.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * The client side of one SCRAM-SHA-256/512 exchange, for this broker's own login on a SASL inter-broker listener. It
 * checks the server's signature, so a server that does not know the password is not accepted either.
 *
 * <p>Not thread-safe; one per connection attempt.
 */
final class ScramClient extends NoSecurityLayer implements SaslClient {
    private static final String GS2_HEADER = "n,,";
    private static final int MAX_ITERATIONS = 1 << 20;

    private final ScramMechanism mechanism;
    private final String userName;
    private final String password;
    private final String clientNonce = ScramMessages.nonce();
    private String clientFirstBare;
    private byte[] expectedServerSignature;
    private int step;
    private boolean complete;

    ScramClient(ScramMechanism mechanism, String userName, String password) {
        this.mechanism = mechanism;
        this.userName = userName;
        this.password = password;
    }

    @Override
    public String getMechanismName() {
        return mechanism.mechanismName();
    }

    @Override
    public boolean hasInitialResponse() {
        return true;
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) throws SaslException {
        switch (step++) {
            case 0:
                clientFirstBare = "n=" + ScramMessages.encodeUserName(userName) + ",r=" + clientNonce;
                return (GS2_HEADER + clientFirstBare).getBytes(StandardCharsets.UTF_8);
            case 1:
                return clientFinal(ScramMessages.text(challenge));
            case 2:
                verifyServerFinal(ScramMessages.text(challenge));
                return null;
            default:
                throw new SaslException("SCRAM exchange already complete");
        }
    }

    private byte[] clientFinal(String serverFirst) throws SaslException {
        Map<String, String> attributes = ScramMessages.attributes(serverFirst);
        String nonce = ScramMessages.require(attributes, "r");
        if (!nonce.startsWith(clientNonce) || nonce.length() == clientNonce.length()) {
            throw new SaslException("SCRAM server nonce does not extend the client's");
        }
        byte[] salt;
        int iterations;
        try {
            salt = Base64.getDecoder().decode(ScramMessages.require(attributes, "s"));
            iterations = Integer.parseInt(ScramMessages.require(attributes, "i"));
        } catch (IllegalArgumentException e) {
            throw new SaslException("malformed SCRAM server-first message: " + e.getMessage());
        }
        if (iterations < ScramMechanism.MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
            throw new SaslException("SCRAM iteration count " + iterations + " is outside ["
                    + ScramMechanism.MIN_ITERATIONS + ", " + MAX_ITERATIONS + "]");
        }
        byte[] salted = mechanism.saltedPassword(password, salt, iterations);
        String withoutProof =
                "c=" + Base64.getEncoder().encodeToString(GS2_HEADER.getBytes(StandardCharsets.UTF_8)) + ",r=" + nonce;
        byte[] authMessage =
                (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientKey = mechanism.clientKey(salted);
        byte[] clientSignature = mechanism.hmac(mechanism.hash(clientKey), authMessage);
        expectedServerSignature = mechanism.hmac(mechanism.serverKey(salted), authMessage);
        String proof = Base64.getEncoder().encodeToString(ScramMechanism.xor(clientKey, clientSignature));
        return (withoutProof + ",p=" + proof).getBytes(StandardCharsets.UTF_8);
    }

    private void verifyServerFinal(String serverFinal) throws SaslException {
        Map<String, String> attributes = ScramMessages.attributes(serverFinal);
        if (attributes.containsKey("e")) {
            throw new SaslException("SCRAM server refused the login: " + attributes.get("e"));
        }
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(ScramMessages.require(attributes, "v"));
        } catch (IllegalArgumentException e) {
            throw new SaslException("SCRAM server signature is not base64");
        }
        if (!MessageDigest.isEqual(signature, expectedServerSignature)) {
            throw new SaslException("SCRAM server signature is wrong: the server does not know the password");
        }
        complete = true;
    }

    @Override
    public boolean isComplete() {
        return complete;
    }
}
