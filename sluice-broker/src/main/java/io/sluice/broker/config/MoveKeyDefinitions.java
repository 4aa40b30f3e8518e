package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.between;

/**
 * The broker keys of Sluice's partition moves (the sluice.move. keys). Part of the catalogue {@link BrokerConfigKeys}
 * assembles; the order of the definitions is the documentation order.
 * Stateless; thread-safe.
 */
final class MoveKeyDefinitions {
    private MoveKeyDefinitions() {}

    /** Defines the partition move keys, after the controller and inter-broker listener keys. */
    static void defineInto(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                MOVE_FILE_TRANSFER_ENABLE,
                BOOLEAN,
                "true",
                "A new replica of a moved partition starts from an in-sync replica's segment files, then fetches the tail; false: it fetches every record (Kafka's way).",
                ANY);
        catalogue.define(
                MOVE_DIRECT_IO_ENABLE,
                BOOLEAN,
                "true",
                "A move's target writes the segment bytes it receives with O_DIRECT where the file system allows it: from its receive buffer to the disk without a copy into the page cache. A partition whose flush policy forces records (log.flush.interval.messages or log.flush.interval.ms set) also forces each file before the install. false: buffered writes, as everywhere else. Falls back to buffered writes on a file system that refuses O_DIRECT.",
                ANY);
        catalogue.define(
                MOVE_PAGE_CACHE_SPILL_ENABLE,
                BOOLEAN,
                "true",
                "true: while a move's target writing with O_DIRECT has the disk behind the wire and the partition leaves flushing to the OS (the default), it writes through the disk and the page cache at once: the disk takes files from the start of the partition as fast as it can, the files from the end go through the page cache (each file wholly one way), so the move runs at the wire's pace and copies into the page cache only what the disk could not take; the flush task forces those after the install. false: the target waits for the disk when it falls behind the wire, so the move runs at the disk's pace and copies nothing into the page cache. A partition whose flush policy forces records always waits for the disk.",
                ANY);
        catalogue.define(
                MOVE_PAGE_CACHE_SPILL_MAX_PERCENT,
                INT,
                "100",
                "With sluice.move.page.cache.spill.enable, the most of a move's bytes (in whole files) that go through the page cache, in percent: each such byte costs the target a copy (about 0.26 s of CPU per GB on a 2-vCPU host) and leaves a dirty page for the kernel to write back beside the disk's own lane. Past it the target waits for its disk. 100: no bound.",
                between(0, 100));
        catalogue.define(
                MOVE_SOCKET_SEND_BUFFER_BYTES,
                INT,
                "4194304",
                "SO_SNDBUF a connection takes when it starts answering a partition move's chunk requests, in place of socket.send.buffer.bytes: with Kafka's 100 KiB each chunk goes out in many rounds of sendfile and a wait for the socket to drain; -1 keeps socket.send.buffer.bytes.",
                atLeast(-1));
        catalogue.define(
                MOVE_CHUNK_BYTES,
                INT,
                "16777216",
                "Bytes per checksummed chunk of a partition move: the most a broken transfer or a bad checksum sends again. Each chunk costs a request, an answer and their bookkeeping on both brokers whatever its size; 16 MiB keeps that to 64 per GB, so a broker's first move does not compile its per-chunk path in the middle of the move. An active segment that holds at least this much, all of it below the high watermark, is rolled and shipped as a file too.",
                atLeast(4096));
        catalogue.define(
                MOVE_CHUNKS_IN_FLIGHT,
                INT,
                "4",
                "Chunk requests a move's target keeps outstanding on its transfer connection, so the source's disk, its checksum and the wire overlap instead of taking turns.",
                between(1, 64));
        catalogue.define(
                MOVE_MAX_CONCURRENT_PER_BROKER,
                INT,
                "2",
                "Partition moves a broker serves as source, and runs as target, at once; each streams at disk speed.",
                atLeast(1));
        catalogue.define(
                MOVE_BATCH_HEADER_MEMORY_BYTES,
                LONG,
                "33554432",
                "Heap for the checksums of the batch headers appended to new segments, 12 bytes per batch, the oldest segments' let go first when full: a move's source vouches for each chunk in the page cache from them instead of reading every header back, where a producer's writes leave the pages costly to map (a chunk not in the page cache is still read header by header, which reads it in ahead of its sending). 0 keeps none; the source then reads the headers.",
                atLeast(0));
        catalogue.define(
                MOVE_PIN_TIMEOUT_MS,
                LONG,
                "60000",
                "How long a source keeps a move's segments pinned after its connection is gone, so the target can resume.",
                atLeast(0));
        catalogue.define(
                MOVE_RETRY_BACKOFF_MS,
                LONG,
                "1000",
                "Pause after every source of a move failed before they are tried again.",
                atLeast(0));
        catalogue.define(
                MOVE_MAX_IDLE_ROUNDS,
                INT,
                "5",
                "Rounds over all sources without a verified byte after which a move fails and its staging is removed.",
                atLeast(1));
        catalogue.define(
                MOVE_FREE_SPACE_MARGIN_BYTES,
                LONG,
                "268435456",
                "A reassignment is refused up front when a new replica's broker would keep less than this many bytes free after taking the partition (its tail still grows).",
                atLeast(0));
    }
}
