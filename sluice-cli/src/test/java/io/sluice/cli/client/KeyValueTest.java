package io.sluice.cli.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyValueTest {

    @Test
    void shouldSplitAtFirstEqualsAndLetLaterEntriesWin() {
        assertEquals(
                Map.of("a", "1", "b", "x=y", "c", ""),
                KeyValue.parseAll("--override", List.of("a=0", "b=x=y", "c=", "a=1")));
    }

    @Test
    void shouldRefuseEntriesWithoutKeyNamingTheOption() {
        for (String bad : List.of("novalue", "=1", "")) {
            IllegalArgumentException error =
                    assertThrows(IllegalArgumentException.class, () -> KeyValue.parseAll("--config", List.of(bad)));
            assertTrue(error.getMessage().contains("--config"), error.getMessage());
            assertTrue(error.getMessage().contains("'" + bad + "'"), error.getMessage());
        }
    }
}
