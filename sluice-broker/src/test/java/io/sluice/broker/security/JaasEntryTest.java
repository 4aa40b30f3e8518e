package io.sluice.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JaasEntryTest {
    @Test
    void shouldReadAccountsAndTheBrokersOwnLogin() {
        JaasEntry entry = JaasEntry.parse(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required\n  username=\"admin\" password=\"a;b\\\"c\"\n"
                        + "  user_admin=\"a;b\\\"c\" user_alice=alice-secret ;");
        assertEquals("org.apache.kafka.common.security.plain.PlainLoginModule", entry.loginModule());
        assertEquals("admin", entry.options().get("username"));
        assertEquals("a;b\"c", entry.options().get("password"));
        assertEquals(Map.of("admin", "a;b\"c", "alice", "alice-secret"), entry.users());
    }

    @Test
    void shouldNameTheProblemWithoutShowingValues() {
        String[] bad = {
            "",
            "Module",
            "Module required user_a=\"secret1\"",
            "Module always user_a=\"secret1\";",
            "Module required user_a=\"secret1;",
            "Module required user_a \"secret1\";",
            "Module required user_a=\"secret1\"; Other required;"
        };
        for (String text : bad) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> JaasEntry.parse("k", text), text);
            assertFalse(e.getMessage().contains("secret1"), e.getMessage());
        }
    }
}
