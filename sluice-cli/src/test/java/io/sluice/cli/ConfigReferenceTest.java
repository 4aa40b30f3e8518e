package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.DynamicBrokerKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's configuration reference says, for every key Sluice accepts, whether it acts: the Kafka keys a
 * properties file may name without effect are listed as ignored, and every broker key that changes live is listed as
 * dynamic (the tables themselves are checked by {@link ReadmeTest}).
 */
class ConfigReferenceTest {
    private static final Path README = Path.of("..", "README.md");
    private static final String REFERENCE = "## Configuration reference";
    private static final String DYNAMIC = "#### Changing broker keys while running";

    private static String section(String readme, String heading) {
        int start = readme.indexOf(heading);
        assertTrue(start >= 0, "README.md has no " + heading);
        int end = readme.indexOf("\n#", start + heading.length());
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    @Test
    void shouldListEveryIgnoredKafkaKeyAsIgnored() throws IOException {
        String reference = section(Files.readString(README), REFERENCE);
        List<String> missing = new ArrayList<>();
        for (String key : BrokerConfig.ignoredKafkaKeys()) {
            if (!reference.contains("`" + key + "`")) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "ignored Kafka keys missing from README.md's configuration reference");
    }

    @Test
    void shouldListEveryDynamicBrokerKeyAsDynamic() throws IOException {
        String dynamic = section(Files.readString(README), DYNAMIC);
        List<String> missing = new ArrayList<>();
        for (String key : DynamicBrokerKeys.all()) {
            if (!dynamic.contains("`" + key + "`")) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "dynamic broker keys missing from README.md's " + DYNAMIC);
    }
}
