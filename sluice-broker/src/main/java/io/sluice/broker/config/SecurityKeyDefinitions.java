package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LIST;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigType.PASSWORD;
import static io.sluice.broker.config.ConfigType.STRING;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.nonEmpty;
import static io.sluice.broker.config.ConfigValidator.nonEmptyListOf;
import static io.sluice.broker.config.ConfigValidator.oneOf;

/**
 * The broker keys of TLS, SASL and ACL authorization; each TLS and SASL key may be given per listener as
 * listener.name.&lt;name&gt;.&lt;key&gt;. Part of the catalogue {@link BrokerConfigKeys} assembles; the order of the
 * definitions is the documentation order.
 * Stateless; thread-safe.
 */
final class SecurityKeyDefinitions {
    private SecurityKeyDefinitions() {}

    /** Defines the security keys, last in the catalogue. */
    static void defineInto(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                SSL_KEYSTORE_TYPE,
                STRING,
                "JKS",
                "Format of the key store: JKS or PKCS12 (Kafka's default).",
                oneOf("JKS", "PKCS12"));
        catalogue.define(
                SSL_KEYSTORE_LOCATION,
                STRING,
                null,
                "Key store holding this broker's TLS key and certificate; required on SSL and SASL_SSL listeners (unset means none).",
                ANY);
        catalogue.define(
                SSL_KEYSTORE_PASSWORD,
                PASSWORD,
                null,
                "Password of the key store; unset means the store is read without one.",
                ANY);
        catalogue.define(
                SSL_KEY_PASSWORD,
                PASSWORD,
                null,
                "Password of the private key in the key store; unset means the key store password.",
                ANY);
        catalogue.define(
                SSL_TRUSTSTORE_TYPE,
                STRING,
                "JKS",
                "Format of the trust store: JKS or PKCS12.",
                oneOf("JKS", "PKCS12"));
        catalogue.define(
                SSL_TRUSTSTORE_LOCATION,
                STRING,
                null,
                "Trust store for client certificates and for the brokers this one connects to; unset means the JDK's CAs.",
                ANY);
        catalogue.define(
                SSL_TRUSTSTORE_PASSWORD,
                PASSWORD,
                null,
                "Password of the trust store; unset means the store is read without one.",
                ANY);
        catalogue.define(
                SSL_CLIENT_AUTH,
                STRING,
                "none",
                "required: clients must present a trusted certificate (mTLS); requested: they may; none: they are not asked.",
                oneOf("required", "requested", "none"));
        catalogue.define(
                SSL_PROTOCOL,
                STRING,
                "TLSv1.3",
                "Protocol of the SSLContext (TLSv1.3 also negotiates TLSv1.2 when enabled).",
                nonEmpty());
        catalogue.define(
                SSL_ENABLED_PROTOCOLS,
                LIST,
                "TLSv1.2,TLSv1.3",
                "TLS versions accepted; older ones are refused, as in Kafka.",
                nonEmpty());
        catalogue.define(
                SSL_CIPHER_SUITES,
                LIST,
                "",
                "Cipher suites accepted; empty means the JDK's defaults for the enabled protocols.",
                ANY);
        catalogue.define(
                SSL_ENDPOINT_IDENTIFICATION_ALGORITHM,
                STRING,
                "https",
                "How this broker checks the certificate of a broker it connects to: https checks the host name; empty does not.",
                ANY);
        catalogue.define(
                SSL_PRINCIPAL_MAPPING_RULES,
                STRING,
                "DEFAULT",
                "Kafka's rules (RULE:pattern/replacement/[LU]) turning a client certificate's subject into the principal name.",
                nonEmpty());
        catalogue.define(
                SASL_ENABLED_MECHANISMS,
                LIST,
                "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
                "SASL mechanisms offered on SASL listeners (Kafka defaults to GSSAPI, which Sluice does not implement).",
                nonEmptyListOf(new String[] {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}));
        catalogue.define(
                SASL_MECHANISM_INTER_BROKER_PROTOCOL,
                STRING,
                "PLAIN",
                "Mechanism this broker logs in with on a SASL inter-broker listener (Kafka's default GSSAPI is not implemented).",
                oneOf("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"));
        catalogue.define(
                SASL_JAAS_CONFIG,
                PASSWORD,
                null,
                "JAAS entry: user_<name>=\"<password>\" options are the accounts, username/password the broker's own login; "
                        + "listener.name.<l>.<mechanism>.sasl.jaas.config wins; unset means no accounts.",
                ANY);
        catalogue.define(
                SASL_SERVER_MAX_RECEIVE_SIZE,
                INT,
                "524288",
                "Largest request frame before SASL authentication completes, so an unauthenticated peer cannot make the broker allocate.",
                atLeast(1));
        catalogue.define(
                CONNECTION_FAILED_AUTHENTICATION_DELAY_MS,
                INT,
                "100",
                "A failed login is answered and closed after this delay, slowing password guessing.",
                atLeast(0));
        catalogue.define(
                CONNECTIONS_MAX_REAUTH_MS,
                LONG,
                "0",
                "A SASL login lasts this long, then the client must log in again on its connection or be closed (KIP-368); 0 is forever.",
                atLeast(0));
        catalogue.define(
                AUTHORIZER_CLASS_NAME,
                STRING,
                "",
                "Kafka's AclAuthorizer or StandardAuthorizer turns ACL checks on (either name, same semantics); empty: everyone may do anything.",
                oneOf("", ZK_ACL_AUTHORIZER, KRAFT_ACL_AUTHORIZER));
        catalogue.define(
                SUPER_USERS,
                STRING,
                "",
                "Principals (User:name), separated by semicolons, that pass every ACL check; brokers log in as one on the inter-broker listener.",
                ANY);
        catalogue.define(
                ALLOW_EVERYONE_IF_NO_ACL_FOUND,
                BOOLEAN,
                "false",
                "With an authorizer, a resource that no ACL names is open to everyone when true (Kafka's default false: closed).",
                ANY);
    }
}
