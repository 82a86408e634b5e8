package io.siteflow.processor.broker;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Every INFO-and-above line of Kafka's and siteflow's loggers while it is open, into a list only (not the
 * console), for tests that grep the logs for secrets. {@link #close()} restores the loggers. Not thread-safe to
 * open; the lines may be read after close.
 */
public final class LogLines implements AutoCloseable {
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> levels = new ArrayList<>();

    private LogLines() {
        appender.start();
        for (String name : List.of("kafka", "org.apache.kafka", "io.siteflow")) {
            Logger l = (Logger) LoggerFactory.getLogger(name);
            loggers.add(l);
            levels.add(l.getLevel());
            l.setLevel(Level.INFO);
            l.setAdditive(false);
            l.addAppender(appender);
        }
    }

    /** Starts collecting. */
    public static LogLines collect() {
        return new LogLines();
    }

    /** The formatted messages so far, with the text of any exception logged with them. */
    public List<String> lines() {
        return appender.list.stream().map(e -> e.getThrowableProxy() == null ? e.getFormattedMessage()
                : e.getFormattedMessage() + " " + e.getThrowableProxy().getMessage()).toList();
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).detachAppender(appender);
            loggers.get(i).setLevel(levels.get(i));
            loggers.get(i).setAdditive(true);
        }
    }
}
