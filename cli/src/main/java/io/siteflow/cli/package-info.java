/** The single {@code siteflow} command over all modules. */
package io.siteflow.cli;
