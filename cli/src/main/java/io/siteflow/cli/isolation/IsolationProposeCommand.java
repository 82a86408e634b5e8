package io.siteflow.cli.isolation;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code siteflow isolation propose} (being built: issue 25). */
@Command(name = "propose", separator = " ", mixinStandardHelpOptions = true,
        header = "(being built)")
public final class IsolationProposeCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        return 1;
    }
}
