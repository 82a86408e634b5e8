package io.siteflow.broker;

import org.apache.kafka.common.utils.internals.Exit;

/**
 * While open, turns Kafka's {@code Exit.exit}/{@code Exit.halt} (which a broker calls on a fatal
 * start-up error) into a {@link BrokerStartException} on the calling thread instead of ending the
 * JVM that also runs the processor, the agent or the tests. Kafka's exit procedures are global:
 * open one guard at a time (the broker's start is synchronized per instance; do not start two
 * brokers concurrently).
 */
final class ExitGuard implements AutoCloseable {
    ExitGuard(String what) {
        Exit.Procedure refuse = (code, message) -> {
            throw new BrokerStartException(what + ": Kafka asked to end the process with status " + code
                    + (message == null ? "" : " (" + message + ")"));
        };
        Exit.setExitProcedure(refuse);
        Exit.setHaltProcedure(refuse);
    }

    @Override
    public void close() {
        Exit.resetExitProcedure();
        Exit.resetHaltProcedure();
    }
}
