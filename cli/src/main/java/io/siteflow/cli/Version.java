package io.siteflow.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = SiteflowCommand.class.getPackage().getImplementationVersion();
        return new String[] {"siteflow " + (v == null ? "development build" : v)};
    }
}
