package io.sluice.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.security.sasl.AuthenticationException;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The server side of one SCRAM-SHA-256/512 exchange (RFC 5802/7677): client-first, server-first, client-final,
 * server-final. An unknown user gets a made-up credential so that the exchange fails at the proof, like a wrong
 * password, and does not tell which user names exist.
 *
 * <p>Not thread-safe; one per authenticating connection.
 */
final class ScramServer extends NoSecurityLayer implements SaslServer {
    private enum State {
        CLIENT_FIRST,
        CLIENT_FINAL,
        COMPLETE,
        FAILED
    }

    private final ScramMechanism mechanism;
    private final Function<String, ScramCredential> credentials;
    private State state = State.CLIENT_FIRST;
    private String userName;
    private ScramCredential credential;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    /** @param credentials the stored credential of a user name, or null when there is none */
    ScramServer(ScramMechanism mechanism, Function<String, ScramCredential> credentials) {
        this.mechanism = mechanism;
        this.credentials = credentials;
    }

    @Override
    public String getMechanismName() {
        return mechanism.mechanismName();
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        try {
            return switch (state) {
                case CLIENT_FIRST -> clientFirst(ScramMessages.text(response));
                case CLIENT_FINAL -> clientFinal(ScramMessages.text(response));
                default ->
                    throw new SaslException(
                            "SCRAM exchange already " + state.name().toLowerCase(Locale.ROOT));
            };
        } catch (SaslException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private byte[] clientFirst(String message) throws SaslException {
        // gs2-header: "n,," or "n,a=<authzid>,"; channel binding ("p=") is not offered.
        int second = message.indexOf(',', message.indexOf(',') + 1);
        if (!(message.startsWith("n,") || message.startsWith("y,")) || second < 0) {
            throw new SaslException("SCRAM client-first message lacks a valid gs2 header");
        }
        gs2Header = message.substring(0, second + 1);
        clientFirstBare = message.substring(second + 1);
        Map<String, String> attributes = ScramMessages.attributes(clientFirstBare);
        userName = ScramMessages.decodeUserName(ScramMessages.require(attributes, "n"));
        String authzid = gs2Header.length() > 3 ? gs2Header.substring(2, gs2Header.length() - 1) : "";
        if (!authzid.isEmpty() && !authzid.equals("a=" + ScramMessages.encodeUserName(userName))) {
            throw new AuthenticationException("Authentication failed: authorization id differs from the user name");
        }
        String clientNonce = ScramMessages.require(attributes, "r");
        credential = credentials.apply(userName);
        if (credential == null) {
            credential = mechanism.credential(ScramMessages.nonce(), ScramMechanism.MIN_ITERATIONS);
        }
        nonce = clientNonce + ScramMessages.nonce();
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credential.salt()) + ",i="
                + credential.iterations();
        state = State.CLIENT_FINAL;
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] clientFinal(String message) throws SaslException {
        int proofAt = message.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw new SaslException("SCRAM client-final message lacks the proof");
        }
        String withoutProof = message.substring(0, proofAt);
        Map<String, String> attributes = ScramMessages.attributes(withoutProof);
        String binding = ScramMessages.require(attributes, "c");
        if (!binding.equals(Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8)))) {
            throw new SaslException("SCRAM channel binding does not match the gs2 header");
        }
        // Ends with, not equals: librdkafka echoes its own nonce before the combined one; Kafka accepts that too, and
        // the
        // proof covers the message exactly as sent.
        if (!ScramMessages.require(attributes, "r").endsWith(nonce)) {
            throw new SaslException("SCRAM nonce of the client-final message does not end with the server's");
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(message.substring(proofAt + 3));
        } catch (IllegalArgumentException e) {
            throw new SaslException("SCRAM proof is not base64");
        }
        byte[] authMessage =
                (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientSignature = mechanism.hmac(credential.storedKey(), authMessage);
        byte[] clientKey = ScramMechanism.xor(proof, clientSignature);
        if (!MessageDigest.isEqual(mechanism.hash(clientKey), credential.storedKey())) {
            throw new AuthenticationException("Authentication failed during authentication due to invalid credentials "
                    + "with SASL mechanism " + mechanism.mechanismName());
        }
        state = State.COMPLETE;
        byte[] serverSignature = mechanism.hmac(credential.serverKey(), authMessage);
        return ("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    @Override
    public String getAuthorizationID() {
        if (!isComplete()) {
            throw new IllegalStateException("SCRAM exchange not complete");
        }
        return userName;
    }

    @Override
    public void dispose() {
        credential = null;
    }
}
