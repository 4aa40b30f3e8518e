/** The tunables of sluice-cluster ({@link io.sluice.cluster.config.ClusterConfig}). */
package io.sluice.cluster.config;
