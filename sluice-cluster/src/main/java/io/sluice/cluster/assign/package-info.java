/** Rack-aware replica placement with balanced leaders ({@link io.sluice.cluster.assign.PartitionAssigner}). */
package io.sluice.cluster.assign;
