package io.sluice.broker.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import javax.security.sasl.AuthenticationException;
import javax.security.sasl.SaslException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ScramTest {
    @Test
    void shouldComputeTheProofAndSignatureOfRfc7677() {
        ScramMechanism sha256 = ScramMechanism.SCRAM_SHA_256;
        String clientFirstBare = "n=user,r=rOprNGfwEbeRWgbNEkqO";
        String serverFirst = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
        String withoutProof = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
        byte[] salted = sha256.saltedPassword("pencil", Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096);
        byte[] authMessage =
                (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientKey = sha256.clientKey(salted);
        byte[] proof = ScramMechanism.xor(clientKey, sha256.hmac(sha256.hash(clientKey), authMessage));
        assertEquals(
                "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
                Base64.getEncoder().encodeToString(proof));
        assertEquals(
                "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=",
                Base64.getEncoder().encodeToString(sha256.hmac(sha256.serverKey(salted), authMessage)));
    }

    @ParameterizedTest
    @EnumSource(ScramMechanism.class)
    void shouldLogInWithTheRightPasswordAndVerifyTheServer(ScramMechanism mechanism) throws Exception {
        Map<String, ScramCredential> users = Map.of("al,i=ce", mechanism.credential("s3cret", 4096));
        ScramServer server = new ScramServer(mechanism, users::get);
        ScramClient client = new ScramClient(mechanism, "al,i=ce", "s3cret");
        byte[] serverFirst = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
        byte[] serverFinal = server.evaluateResponse(client.evaluateChallenge(serverFirst));
        assertTrue(server.isComplete());
        assertEquals("al,i=ce", server.getAuthorizationID());
        assertNull(client.evaluateChallenge(serverFinal));
        assertTrue(client.isComplete());
    }

    @ParameterizedTest
    @EnumSource(ScramMechanism.class)
    void shouldRefuseAWrongPasswordAndAnUnknownUserAlike(ScramMechanism mechanism) throws Exception {
        Map<String, ScramCredential> users = Map.of("alice", mechanism.credential("s3cret", 4096));
        for (String[] login : new String[][] {{"alice", "wrong"}, {"mallory", "s3cret"}}) {
            ScramServer server = new ScramServer(mechanism, users::get);
            ScramClient client = new ScramClient(mechanism, login[0], login[1]);
            byte[] serverFirst = server.evaluateResponse(client.evaluateChallenge(new byte[0]));
            byte[] clientFinal = client.evaluateChallenge(serverFirst);
            SaslException refused = assertThrows(SaslException.class, () -> server.evaluateResponse(clientFinal));
            assertInstanceOf(AuthenticationException.class, refused);
            assertFalse(refused.getMessage().contains(login[1]), "no password in the message");
            assertFalse(server.isComplete());
        }
    }

    @Test
    void shouldRefuseAServerThatDoesNotKnowThePassword() throws Exception {
        ScramMechanism mechanism = ScramMechanism.SCRAM_SHA_256;
        ScramClient client = new ScramClient(mechanism, "alice", "s3cret");
        ScramServer impostor = new ScramServer(mechanism, user -> mechanism.credential("other", 4096));
        byte[] serverFirst = impostor.evaluateResponse(client.evaluateChallenge(new byte[0]));
        byte[] clientFinal = client.evaluateChallenge(serverFirst);
        assertThrows(SaslException.class, () -> impostor.evaluateResponse(clientFinal));
        byte[] forged = ("v=" + Base64.getEncoder().encodeToString(new byte[32])).getBytes(StandardCharsets.UTF_8);
        assertThrows(SaslException.class, () -> client.evaluateChallenge(forged));
    }

    @Test
    void shouldRefuseGarbageWithASaslExceptionNotARuntimeException() {
        byte[][] garbage = {
            new byte[0],
            "n,,".getBytes(StandardCharsets.UTF_8),
            "x,,n=a,r=b".getBytes(StandardCharsets.UTF_8),
            "n,,n=a".getBytes(StandardCharsets.UTF_8),
            "n,,n=a=ZZ,r=b".getBytes(StandardCharsets.UTF_8),
            new byte[5000],
            "n,,n=a,r=b,r=c".getBytes(StandardCharsets.UTF_8)
        };
        for (byte[] message : garbage) {
            ScramServer server = new ScramServer(ScramMechanism.SCRAM_SHA_512, user -> null);
            assertThrows(
                    SaslException.class,
                    () -> server.evaluateResponse(message),
                    new String(message, StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldCheckPlainPasswordsAndAuthorizationIds() throws Exception {
        Map<String, String> passwords = Map.of("alice", "s3cret");
        PlainServer ok = new PlainServer(passwords::get);
        assertArrayEquals(new byte[0], ok.evaluateResponse("\u0000alice\u0000s3cret".getBytes(StandardCharsets.UTF_8)));
        assertEquals("alice", ok.getAuthorizationID());
        for (String bad : new String[] {
            "\u0000alice\u0000wrong",
            "bob\u0000alice\u0000s3cret",
            "\u0000bob\u0000s3cret",
            "alice\u0000s3cret",
            "\u0000\u0000",
            "\u0000alice\u0000s3cret\u0000"
        }) {
            PlainServer server = new PlainServer(passwords::get);
            assertThrows(SaslException.class, () -> server.evaluateResponse(bad.getBytes(StandardCharsets.UTF_8)), bad);
            assertFalse(server.isComplete());
        }
    }
}
