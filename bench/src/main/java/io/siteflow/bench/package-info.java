/** JMH benchmarks of siteflow's hot paths. */
package io.siteflow.bench;
