package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LIST;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigType.STRING;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.nonEmpty;

/**
 * The broker keys of a server's basics: its id, listeners, log directories, the defaults of new topics, and the sockets
 * and threads serving requests. Part of the catalogue {@link BrokerConfigKeys} assembles; the order of the definitions
 * is the documentation order.
 * Stateless; thread-safe.
 */
final class ServerKeyDefinitions {
    private ServerKeyDefinitions() {}

    /** Defines the basics, first in the catalogue. */
    static void defineInto(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                BROKER_ID,
                INT,
                "0",
                "Id of this broker in the cluster; node.id is read when broker.id is absent.",
                atLeast(0));
        catalogue.define(
                LISTENERS,
                LIST,
                "PLAINTEXT://127.0.0.1:9092",
                "Comma list of NAME://HOST:PORT to bind, each served with the security protocol its name maps to; port 0 picks a free port.",
                nonEmpty());
        catalogue.define(
                ADVERTISED_LISTENERS,
                LIST,
                null,
                "Comma list of NAME://HOST:PORT registered for each listener name; a request is answered with the brokers' endpoints of the listener it arrived on; unset means the listeners.",
                ANY);
        catalogue.define(
                LISTENER_SECURITY_PROTOCOL_MAP,
                STRING,
                "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
                "Maps listener names to PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.",
                ANY);
        catalogue.define(
                LOG_DIRS, LIST, null, "Comma list of directories holding partition logs; unset means log.dir.", ANY);
        catalogue.define(
                LOG_DIR,
                STRING,
                "./data",
                "Directory holding partition logs when log.dirs is unset (relative to the working directory).",
                nonEmpty());
        catalogue.define(
                NUM_PARTITIONS,
                INT,
                "1",
                "Partitions of an auto-created topic or of CreateTopics with -1 partitions.",
                atLeast(1));
        catalogue.define(
                DEFAULT_REPLICATION_FACTOR,
                INT,
                "1",
                "Replication factor of auto-created topics and of CreateTopics with -1.",
                atLeast(1));
        catalogue.define(
                MIN_INSYNC_REPLICAS,
                INT,
                "1",
                "In-sync replicas an acks=-1 produce needs before it is acknowledged.",
                atLeast(1));
        catalogue.define(
                AUTO_CREATE_TOPICS_ENABLE,
                BOOLEAN,
                "true",
                "Create a topic when a producer or metadata request names an unknown one.",
                ANY);
        catalogue.define(
                DELETE_TOPIC_ENABLE, BOOLEAN, "true", "Allow DeleteTopics; when false, deletes are refused.", ANY);
        catalogue.define(
                MESSAGE_MAX_BYTES,
                INT,
                "1048588",
                "Largest record batch a producer may send, after compression.",
                atLeast(0));
        catalogue.define(
                SOCKET_REQUEST_MAX_BYTES,
                INT,
                "104857600",
                "Largest request frame; larger or negative frame lengths close the connection.",
                atLeast(1));
        catalogue.define(
                SOCKET_SEND_BUFFER_BYTES,
                INT,
                "102400",
                "SO_SNDBUF of client sockets; -1 leaves the OS default.",
                atLeast(-1));
        catalogue.define(
                SOCKET_RECEIVE_BUFFER_BYTES,
                INT,
                "102400",
                "SO_RCVBUF of client sockets; -1 leaves the OS default.",
                atLeast(-1));
        catalogue.define(
                CONNECTIONS_MAX_IDLE_MS,
                LONG,
                "600000",
                "Idle connections are closed after this many milliseconds.",
                atLeast(1));
        catalogue.define(
                NUM_NETWORK_THREADS,
                INT,
                "3",
                "Threads reading requests from and writing responses to sockets.",
                atLeast(1));
        catalogue.define(NUM_IO_THREADS, INT, "8", "Threads handling requests (including disk I/O).", atLeast(1));
    }
}
