package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigKey;
import io.sluice.broker.config.TopicConfigKey;
import io.sluice.broker.config.TopicConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README (at ../README.md from the module directory) documents every key and keeps its first screen. */
class ReadmeTest {
    private static final Path README = Path.of("..", "README.md");
    private static final Pattern FENCED_COMMAND = Pattern.compile("```sh\n([^`]+?)\n```");
    private static final String FIRST_SCREEN_END = "\n---\n";

    @Test
    void shouldListEveryBrokerKeyWithItsDefaultAndDoc() throws IOException {
        String readme = Files.readString(README);
        List<String> missing = new ArrayList<>();
        for (ConfigKey key : BrokerConfig.brokerKeys()) {
            String defaultCell = defaultCell(key.defaultValue());
            String row = "| `" + key.name() + "` | " + defaultCell + " | " + key.doc() + " |";
            if (!readme.contains(row)) {
                missing.add(row);
            }
        }
        assertEquals(
                List.of(),
                missing,
                "README.md rows missing or out of date (regenerate from BrokerConfig.brokerKeys())");
    }

    /** An empty default would render as a stray pair of backticks, so it is written (empty). */
    private static String defaultCell(String defaultValue) {
        if (defaultValue == null) {
            return "(unset)";
        }
        return defaultValue.isEmpty() ? "(empty)" : "`" + defaultValue + "`";
    }

    @Test
    void shouldListEveryTopicKey() throws IOException {
        String readme = Files.readString(README);
        List<String> missing = new ArrayList<>();
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            if (!readme.contains("| `" + key.name() + "` | ")
                    || !readme.contains(key.key().doc())) {
                missing.add(key.name());
            }
        }
        assertEquals(List.of(), missing, "topic keys missing from README.md");
    }

    @Test
    void shouldListEveryClientQuotaKey() throws IOException {
        String readme = Files.readString(README);
        List<String> missing = new ArrayList<>();
        for (io.sluice.broker.config.ClientQuotaKeys.QuotaKey key :
                io.sluice.broker.config.ClientQuotaKeys.USER_AND_CLIENT_KEYS.values()) {
            String row =
                    "| `" + key.name() + "` | " + (key.whole() ? "whole number" : "number") + " | " + key.doc() + " |";
            if (!readme.contains(row)) {
                missing.add(key.name());
            }
        }
        assertEquals(List.of(), missing, "client quota keys missing from README.md");
    }

    @Test
    void shouldShowExactlyTwoCommandsOnTheFirstScreen() throws IOException {
        String readme = Files.readString(README);
        int end = readme.indexOf(FIRST_SCREEN_END);
        assertTrue(end > 0, "README.md first screen must end with a --- rule");
        Matcher commands = FENCED_COMMAND.matcher(readme.substring(0, end));
        List<String> found = new ArrayList<>();
        while (commands.find()) {
            found.add(commands.group(1));
        }
        assertEquals(List.of("bin/sluice server", "mvn -B verify"), found);
    }

    @Test
    void shouldRunTheReadmeTestCommandInCi() throws IOException {
        String ci = Files.readString(Path.of("..", ".ci", "run"));
        assertTrue(
                ci.lines().anyMatch(line -> line.strip().equals("mvn -B verify")),
                ".ci/run must run exactly the README's test command: " + ci);
    }
}
