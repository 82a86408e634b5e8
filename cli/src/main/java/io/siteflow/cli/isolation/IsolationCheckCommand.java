package io.siteflow.cli.isolation;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code siteflow isolation check} (being built: issue 25). */
@Command(name = "check", separator = " ", mixinStandardHelpOptions = true,
        header = "(being built)")
public final class IsolationCheckCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        return 1;
    }
}
