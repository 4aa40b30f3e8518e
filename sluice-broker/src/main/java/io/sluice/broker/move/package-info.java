/**
 * Partition moves, the file-transfer part: a new (adding) replica whose local log is empty starts from an in-sync
 * replica's closed segment files, leader epochs and producer snapshot instead of fetching every record; follower
 * fetch then carries the tail from the boundary.
 *
 * <h2>Protocol</h2>
 * A Sluice-private request on the broker's existing Kafka listener ({@link io.sluice.broker.move.MoveFrameDescriptor}:
 * API key {@value io.sluice.broker.move.MoveFrameDescriptor#API_KEY}, outside Kafka's ids, never advertised in
 * ApiVersions, taken by {@code RequestChannelHandler} before Kafka header parsing, and only once a SASL listener's
 * login is done). The target opens its own connection per transfer through the inter-broker listener's
 * {@code ClientSecurity} (TLS, SASL login, as replication does); it keeps up to {@code sluice.move.chunks.in.flight}
 * chunk requests outstanding (answers come back in request order), every other request goes alone:
 * <ol>
 * <li>{@link io.sluice.broker.move.MoveOpenRequest} (transfer id, topic, partition, leader epoch) →
 *     {@link io.sluice.broker.move.MoveSegmentList}: closed segments below the boundary (the base of the newest segment
 *     at or below the source's high watermark), leader epochs below it, the producer snapshot at or below it. The
 *     source pins those segments against retention and DeleteRecords
 *     ({@link io.sluice.log.ship.SegmentPins}) until the transfer is closed, or no connection of it has been open for
 *     {@code sluice.move.pin.timeout.ms}. Reopening with the same transfer id rejoins the same pinned view. A transfer
 *     whose partition left the source (its replica removed or replaced) or whose log was truncated below the boundary
 *     ends at its next request with NOT_LEADER_OR_FOLLOWER: the target goes on with its next source.</li>
 * <li>{@link io.sluice.broker.move.MoveChunkRequest} (file, position, max length) →
 *     {@link io.sluice.broker.move.MoveChunkHeader} with the CRC-32C of the chunk, then the raw bytes by sendfile
 *     ({@code SegmentFileRegion}, the fetch path's zero-copy region; under TLS chunked reads that the SslHandler
 *     encrypts). At most {@code sluice.move.chunk.bytes}.</li>
 * <li>{@link io.sluice.broker.move.MoveCloseRequest} → pins released.</li>
 * </ol>
 * Why the Kafka listener and not a separate port: no new port to configure, advertise, firewall or secure later
 * (TLS/SASL arrive once for both), and a transfer is just another connection; the request path hands the frame over
 * before any Kafka parsing, so the cost for Kafka requests is one map lookup that is empty-checked first.
 *
 * <h2>Target side</h2>
 * {@link io.sluice.broker.move.MoveTransferClient#bootstrap} writes chunks into {@code <partition dir>/move-staging}
 * through one direct buffer (no heap copy), checks each chunk's CRC-32C and every record batch's CRC-32C and offsets
 * on the bytes as they arrive ({@code BatchStreamCheck}, taken only once the chunk's checksum matched), indexes the
 * batches it takes ({@code SegmentIndexBuilder}), writes each completed segment's indexes on a flush thread while the
 * next arrives, and installs only when every file is complete: {@code PartitionLog.installStaged} renames the files
 * and their indexes in, loads the shipped epochs and the producer state at the boundary. Whether the files reach the
 * disk first follows the partition's flush policy, as appended records do: left to the OS (the default, Kafka's),
 * the payload goes to the disk with O_DIRECT ({@code sluice.move.direct.io.enable}) as fast as the disk takes it, and
 * while the disk is behind the wire the files from the partition's end go through the page cache at the same time
 * ({@code sluice.move.page.cache.spill.enable}, default true; {@link io.sluice.broker.move.ChunkSchedule},
 * {@link io.sluice.broker.move.StagedWrites}), the files are installed above the
 * log's recovery point, its flush task forces them within a second, and a crash before that recovers them batch by
 * batch; a policy that forces records waits for the disk and forces each file on the flush thread before the install. A bad chunk is discarded and asked for again; a broken connection resumes from the
 * last verified byte of the same source; a source that stops delivering is replaced by the next; a target restart
 * resumes from the staged files (each keeps its prefix of whole CRC-valid batches). Counters:
 * {@link io.sluice.broker.move.TransferProgress}. Throttles: {@link io.sluice.broker.move.ByteRateLimiter} on both
 * sides (Kafka's {@code leader/follower.replication.throttled.rate} plug in there; default unlimited).
 *
 * <h2>Wiring (for the reassignment controller side)</h2>
 * <ul>
 * <li>Source: done in {@code SluiceBroker.start}: a {@link io.sluice.broker.move.MoveSource} over the hosted
 *     partitions, put on the listener by the network layer's {@code MoveSourceHandler} (which writes its answers) with
 *     {@code ApiRegistry.registerPrivate(MoveFrameDescriptor.API_KEY, new MoveSourceHandler(source))}; its
 *     {@code expireAbandoned()} runs every second on the replication timer, and it is closed with the broker.</li>
 * <li>Target: when this broker becomes an adding replica of a partition whose local log is empty, and before its
 *     {@code ReplicaFetcher} is started for it, run on a move thread (at most
 *     {@code MoveConfig.maxConcurrentMoves()} of them per broker; the source refuses more with
 *     THROTTLING_QUOTA_EXCEEDED):
 * <pre>{@code
 * if (!MoveTransferClient.hasRoom(logDir, leaderPartitionBytes, moveConfig)) refuse the move up front;
 * MoveTransferClient client = new MoveTransferClient(MoveConfig.of(brokerConfig), ByteRateLimiter.UNLIMITED);
 * long fetchFrom = client.bootstrap(partition.log(), topic, index, isrAddressesFirstThenOtherReplicas,
 *                                   partition.leaderEpoch(), progress);   // blocks; client.cancel() from any thread
 * // then start follower fetch as usual: the log ends at fetchFrom with the right epochs and producer state
 * }</pre></li>
 * <li>Cancelled reassignment: {@code client.cancel()} (bootstrap then ends at once, even when the disk holds a staged
 *     write or a segment's finish up: its staging goes as soon as that returns, and until then no transfer of the
 *     partition opens it, {@code StagingRemovals}); for a partition that follows or leads without a transfer
 *     (at start-up too) but has staging: {@link io.sluice.broker.move.MoveTransferClient#discardStaging}. On an
 *     interrupt (broker shutdown) bootstrap keeps staging and the next call resumes it. A crash during the install
 *     is rolled back when the log opens again (the renamed files go back into staging), so the next call resumes
 *     with every file.</li>
 * </ul>
 * Threading: {@code MoveTransferClient} runs on its caller's thread ({@code cancel()} from any);
 * {@code MoveSource} is thread-safe, called on the request threads.
 */
package io.sluice.broker.move;
