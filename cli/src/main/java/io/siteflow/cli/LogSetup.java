package io.siteflow.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The command line's logging, set up in code (found by logback through {@code META-INF/services}) rather than
 * from a {@code logback.xml}: parsing XML cost the JVM start of every short command ~0.1 s. Logs go to standard
 * error (standard output carries JSON lines and reports) as {@code HH:mm:ss.SSS LEVEL Logger - message};
 * {@code io.siteflow} at {@code $SITEFLOW_LOG_LEVEL} (default WARN), Kafka's client at ERROR, the rest at WARN.
 * A {@code -Dlogback.configurationFile} (deploy/conf/logback.xml) or a {@code logback-test.xml} on the class
 * path wins: this configurator then steps aside and logback reads that file as usual.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || LogSetup.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        context.getLogger("io.siteflow").setLevel(Level.toLevel(System.getenv("SITEFLOW_LOG_LEVEL"), Level.WARN));
        context.getLogger("org.pcap4j").setLevel(Level.WARN);
        context.getLogger("org.apache.kafka").setLevel(Level.ERROR);
        context.getLogger("kafka").setLevel(Level.WARN);
        context.getLogger("state.change.logger").setLevel(Level.WARN);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
