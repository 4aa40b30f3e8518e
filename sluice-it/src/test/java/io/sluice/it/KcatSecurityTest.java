package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Kcat;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.security.TestSecurity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * librdkafka (kcat, {@code -X security.protocol=...}) against secured listeners: metadata, produce with acks=all and
 * consume back, over SSL with and without a client certificate, SASL_PLAINTEXT and SASL_SSL with PLAIN and SCRAM.
 */
class KcatSecurityTest {
    @TempDir
    static Path tempDir;

    static SecureBrokers brokers;
    static TestSecurity security;

    @BeforeAll
    static void makeCertificates() throws Exception {
        assertTrue(Kcat.isInstalled(), Kcat.NOT_INSTALLED);
        brokers = new SecureBrokers(tempDir, KcatSecurityTest.class);
        security = brokers.security();
    }

    @AfterAll
    static void stopBrokers() {
        brokers.close();
    }

    @ParameterizedTest(name = "{0} {1} client certificate {2}")
    @CsvSource({
        "SSL,,false",
        "SSL,,true",
        "SASL_PLAINTEXT,PLAIN,false",
        "SASL_PLAINTEXT,SCRAM-SHA-256,false",
        "SASL_SSL,PLAIN,false",
        "SASL_SSL,SCRAM-SHA-256,false",
        "SASL_SSL,SCRAM-SHA-512,true"
    })
    void shouldProduceAndConsumeWithKcat(String protocol, String mechanism, boolean certificate) throws Exception {
        String topic = "kcat-" + protocol.toLowerCase(Locale.ROOT) + "-"
                + (mechanism == null ? "tls" : mechanism.toLowerCase(Locale.ROOT)) + "-" + certificate;
        List<String> options = new ArrayList<>();
        for (String option : security.kcatOptions(protocol, mechanism, certificate)) {
            options.add("-X");
            options.add(option);
        }
        Kcat kcat = new Kcat(brokers.broker(protocol).bootstrap());

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add("k" + i + ":" + "v".repeat(i * 500) + i);
        }
        List<String> produce = new ArrayList<>(options);
        produce.addAll(List.of("-P", "-t", topic, "-K", ":", "-X", "acks=all"));
        ProcessResult produced = kcat.run(
                (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8), produce.toArray(new String[0]));
        assertTrue(produced.succeeded(), produced.describe());

        List<String> consume = new ArrayList<>(options);
        consume.addAll(List.of("-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-q", "-f", "%k:%s\\n"));
        ProcessResult consumed = kcat.run(new byte[0], consume.toArray(new String[0]));
        assertTrue(consumed.succeeded(), consumed.describe());
        assertEquals(lines, consumed.stdoutLines());

        List<String> metadata = new ArrayList<>(options);
        metadata.addAll(List.of("-L", "-t", topic));
        ProcessResult listed = kcat.run(new byte[0], metadata.toArray(new String[0]));
        assertTrue(listed.succeeded() && listed.stdoutText().contains("topic \"" + topic + "\""), listed.describe());
    }
}
