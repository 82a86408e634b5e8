/**
 * What-if of moving a server to another site, from measured flow records: cross-site bytes before and after, the
 * flows that would change side, the DB calls that would stop or start paying the inter-site RTT, and every link's
 * RTT as an upper bound of fibre distance. Pure domain code.
 */
package io.siteflow.rules.whatif;
