package io.sluice.broker.security;

import java.nio.charset.StandardCharsets;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * The client side of SASL/PLAIN: one message with the user name and password, for this broker's own login.
 *
 * <p>Not thread-safe; one per connection attempt.
 */
final class PlainClient extends NoSecurityLayer implements SaslClient {
    private final String userName;
    private final String password;
    private boolean complete;

    PlainClient(String userName, String password) {
        this.userName = userName;
        this.password = password;
    }

    @Override
    public String getMechanismName() {
        return PlainServer.MECHANISM;
    }

    @Override
    public boolean hasInitialResponse() {
        return true;
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) throws SaslException {
        if (complete) {
            throw new SaslException("PLAIN exchange already complete");
        }
        complete = true;
        return ("\u0000" + userName + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isComplete() {
        return complete;
    }
}
