/**
 * The cluster soak ({@code bench/cluster-soak.sh}, docs/BENCHMARKS.md "Cluster soak"): a load generator that stands
 * for many capture agents ({@link io.siteflow.bench.soak.SoakLoad}), the lag, memory and GC series it records, and
 * the plot of that series ({@link io.siteflow.bench.soak.SoakPlot}).
 */
package io.siteflow.bench.soak;
