/**
 * {@code siteflow sites import}: a site model built from the WebLogic domain's own configuration.
 * Readers turn {@code config.xml} with its JDBC and Coherence descriptors ({@link ConfigXmlReader}) or a WebLogic
 * Deploy Tooling model ({@link WdtModelReader}) into one {@link Domain}; {@link ModelBuilder} places its servers
 * and database addresses in sites (a server's host with its {@code cluster:}) and derives rules for its ports, and,
 * with {@code --isolation}, {@link DomainPolicy} the {@code isolation:} block the domain implies;
 * {@link SitesYamlWriter} writes the {@code sites.yaml}, which the ordinary loader then validates. Every problem is a
 * {@link io.siteflow.rules.load.Diagnostic} naming file, line, column and element. Pure: files in, text out.
 */
package io.siteflow.rules.importer;
