/**
 * What every siteflow command shares, whatever module it lives in: its {@link io.siteflow.model.cli.ExitCodes}
 * and the masking of secrets in what it prints ({@link io.siteflow.model.cli.Secrets}). JDK only: the picocli
 * wiring stays with each command.
 */
package io.siteflow.model.cli;
