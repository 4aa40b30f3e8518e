package io.sluice.testkit.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Certificates and accounts for security tests, made at test time with the JDK's {@code keytool} (nothing is
 * committed): a self-signed broker certificate for 127.0.0.1/localhost, a self-signed client certificate
 * ({@code CN=client-1,OU=sluice-test}) for mutual TLS, and one PKCS12 trust store holding both; plus the broker
 * settings and Kafka client properties for each security protocol and SASL mechanism.
 *
 * <p>Immutable after {@link #create}; thread-safe.
 */
public final class TestSecurity {
    public static final String STORE_PASSWORD = "store-secret";
    public static final String USER = "alice";
    public static final String PASSWORD = "alice-secret";
    public static final String BROKER_USER = "broker";
    public static final String BROKER_PASSWORD = "broker-secret";
    public static final String CLIENT_DN = "CN=client-1,OU=sluice-test";

    private final Path brokerKeyStore;
    private final Path clientKeyStore;
    private final Path trustStore;
    private final Path brokerCertificatePem;

    private TestSecurity(Path dir) {
        this.brokerKeyStore = dir.resolve("broker.p12");
        this.clientKeyStore = dir.resolve("client.p12");
        this.trustStore = dir.resolve("truststore.p12");
        this.brokerCertificatePem = dir.resolve("broker.pem");
    }

    /** Makes the stores under {@code dir} (created if missing). */
    public static TestSecurity create(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        TestSecurity security = new TestSecurity(dir);
        security.keyPair(
                security.brokerKeyStore, "broker", "CN=localhost,OU=sluice-test", "SAN=ip:127.0.0.1,dns:localhost");
        security.keyPair(security.clientKeyStore, "client", CLIENT_DN, null);
        Path clientPem = dir.resolve("client.pem");
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "broker",
                "-keystore",
                security.brokerKeyStore.toString(),
                "-storepass",
                STORE_PASSWORD,
                "-file",
                security.brokerCertificatePem.toString());
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "client",
                "-keystore",
                security.clientKeyStore.toString(),
                "-storepass",
                STORE_PASSWORD,
                "-file",
                clientPem.toString());
        for (String[] entry :
                new String[][] {{"broker", security.brokerCertificatePem.toString()}, {"client", clientPem.toString()}
                }) {
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    entry[0],
                    "-file",
                    entry[1],
                    "-keystore",
                    security.trustStore.toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    STORE_PASSWORD);
        }
        return security;
    }

    private void keyPair(Path store, String alias, String dn, String san) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "3",
                "-dname",
                dn,
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                STORE_PASSWORD,
                "-keypass",
                STORE_PASSWORD));
        if (san != null) {
            args.add("-ext");
            args.add(san);
        }
        keytool(args.toArray(new String[0]));
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(
                    "keytool " + String.join(" ", args) + " failed: " + new String(output, StandardCharsets.UTF_8));
        }
    }

    public Path brokerKeyStore() {
        return brokerKeyStore;
    }

    public Path clientKeyStore() {
        return clientKeyStore;
    }

    public Path trustStore() {
        return trustStore;
    }
    /** The broker certificate in PEM, the CA file for librdkafka ({@code ssl.ca.location}). */
    public Path brokerCertificatePem() {
        return brokerCertificatePem;
    }

    /**
     * Broker settings ({@code key=value}) for one listener of {@code protocol} (SSL, SASL_PLAINTEXT, SASL_SSL) on an
     * ephemeral loopback port: the stores, client certificates requested (not required), and for SASL the accounts
     * {@value #USER} and {@value #BROKER_USER} under PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512, {@value #BROKER_USER} being
     * the broker's own inter-broker login.
     */
    public List<String> brokerSettings(String protocol, String interBrokerMechanism) {
        String listener = protocol.toLowerCase(Locale.ROOT);
        List<String> settings = new ArrayList<>();
        settings.add("listeners=" + protocol + "://127.0.0.1:0");
        settings.add("ssl.keystore.location=" + brokerKeyStore);
        settings.add("ssl.keystore.type=PKCS12");
        settings.add("ssl.keystore.password=" + STORE_PASSWORD);
        settings.add("ssl.truststore.location=" + trustStore);
        settings.add("ssl.truststore.type=PKCS12");
        settings.add("ssl.truststore.password=" + STORE_PASSWORD);
        settings.add("listener.name." + listener + ".ssl.client.auth=requested");
        settings.add("sasl.mechanism.inter.broker.protocol=" + interBrokerMechanism);
        String accounts = "user_" + USER + "=\"" + PASSWORD + "\" user_" + BROKER_USER + "=\"" + BROKER_PASSWORD + "\"";
        String self = "username=\"" + BROKER_USER + "\" password=\"" + BROKER_PASSWORD + "\" ";
        settings.add("listener.name." + listener + ".plain.sasl.jaas.config="
                + "org.apache.kafka.common.security.plain.PlainLoginModule required " + self + accounts + ";");
        for (String scram : List.of("scram-sha-256", "scram-sha-512")) {
            settings.add("listener.name." + listener + "." + scram + ".sasl.jaas.config="
                    + "org.apache.kafka.common.security.scram.ScramLoginModule required " + self + accounts + ";");
        }
        return settings;
    }

    /** Kafka client properties for {@code protocol}, {@code mechanism} (null without SASL) and a client certificate. */
    public Map<String, String> clientProperties(
            String protocol, String mechanism, String password, boolean clientCertificate) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("security.protocol", protocol);
        if (protocol.contains("SSL")) {
            props.put("ssl.truststore.location", trustStore.toString());
            props.put("ssl.truststore.type", "PKCS12");
            props.put("ssl.truststore.password", STORE_PASSWORD);
            if (clientCertificate) {
                props.put("ssl.keystore.location", clientKeyStore.toString());
                props.put("ssl.keystore.type", "PKCS12");
                props.put("ssl.keystore.password", STORE_PASSWORD);
            }
        }
        if (mechanism != null) {
            props.put("sasl.mechanism", mechanism);
            String module = mechanism.equals("PLAIN")
                    ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            props.put(
                    "sasl.jaas.config", module + " required username=\"" + USER + "\" password=\"" + password + "\";");
        }
        return props;
    }

    /** The same for kcat/librdkafka ({@code -X key=value} pairs). */
    public List<String> kcatOptions(String protocol, String mechanism, boolean clientCertificate) {
        List<String> options = new ArrayList<>();
        options.add("security.protocol=" + protocol.toLowerCase(Locale.ROOT));
        if (protocol.contains("SSL")) {
            options.add("ssl.ca.location=" + brokerCertificatePem);
            if (clientCertificate) {
                options.add("ssl.keystore.location=" + clientKeyStore);
                options.add("ssl.keystore.password=" + STORE_PASSWORD);
            }
        }
        if (mechanism != null) {
            options.add("sasl.mechanisms=" + mechanism);
            options.add("sasl.username=" + USER);
            options.add("sasl.password=" + PASSWORD);
        }
        return options;
    }
}
