package io.siteflow.broker;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Every event of some loggers of this JVM at INFO and above while it is open, kept in memory instead of going to
 * the console; {@link #close()} gives the loggers back their level and appenders. For tests that read what was
 * logged (state transitions, secrets that must not appear). Thread-safe for the logging side.
 */
public final class LogCapture implements AutoCloseable {
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> levels = new ArrayList<>();

    private LogCapture(List<String> names) {
        appender.start();
        for (String name : names) {
            Logger logger = (Logger) LoggerFactory.getLogger(name);
            loggers.add(logger);
            levels.add(logger.getLevel());
            logger.setLevel(Level.INFO);
            logger.setAdditive(false);
            logger.addAppender(appender);
        }
    }

    /** Starts capturing the loggers named {@code names} (and their children). */
    public static LogCapture of(String... names) {
        return new LogCapture(List.of(names));
    }

    /** The lines so far: each event's message, then the message of each exception in its cause chain. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        synchronized (appender) { // AppenderBase.doAppend holds this lock while it adds
            for (ILoggingEvent e : List.copyOf(appender.list)) {
                out.add(e.getFormattedMessage());
                for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                    out.add(t.getClassName() + ": " + t.getMessage());
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).detachAppender(appender);
            loggers.get(i).setLevel(levels.get(i));
            loggers.get(i).setAdditive(true);
        }
        appender.stop();
    }
}
