/**
 * Log compaction with Apache Kafka's semantics: {@link io.sluice.log.clean.LogCleaner} runs
 * {@code log.cleaner.threads} threads that pick the dirtiest compacted log, map the latest offset of every key of its
 * dirty section in a bounded {@link io.sluice.log.clean.OffsetMap}, rewrite its closed segments group by group with
 * only the records that are still the latest of their key ({@link io.sluice.log.clean.Cleaner}), swap each cleaned
 * group in crash-safely ({@code .cleaned}, {@code .swap}) and remember where the dirty section starts in
 * {@code cleaner-offset-checkpoint} ({@link io.sluice.log.clean.CleanerCheckpoints}).
 */
package io.sluice.log.clean;
