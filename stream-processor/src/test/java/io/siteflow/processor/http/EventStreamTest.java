package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.javalin.Javalin;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A dashboard tab that closes (its event stream ends) is dropped quietly: the push that meets the closed
 * connection stops at once, so Javalin never logs "SseClient has been terminated" for the views left.
 */
class EventStreamTest {
    @Test
    void aClosedTabIsDroppedWithoutTerminatedWarnings() throws Exception {
        AtomicLong tick = new AtomicLong();
        // seven views that all change every tick, as the dashboard's do under traffic
        EventStream events = new EventStream(() -> {
            long t = tick.incrementAndGet();
            Map<String, String> views = new LinkedHashMap<>();
            for (String name : new String[] {"verdicts", "latest", "agents", "alerts", "talkers", "links", "rules"}) {
                views.put(name, "{\"tick\":" + t + ",\"pad\":\"" + "x".repeat(4096) + "\"}");
            }
            return views;
        }, 20);
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        root.addAppender(logged);
        Javalin app = Javalin.create().sse("/api/events", events::connect).start("127.0.0.1", 0);
        try {
            String url = "http://127.0.0.1:" + app.port() + "/api/events";
            SseReader tab = SseReader.open(url);
            // a second tab stays open, so that pushes go on after the first one closed
            try (SseReader open = SseReader.open(url)) {
                assertThat(tab.next("rules")).startsWith("{\"tick\":");
                assertThat(open.next("rules")).startsWith("{\"tick\":");
                await("both tabs connected").atMost(Duration.ofSeconds(10)).until(() -> events.clientCount() == 2);

                tab.close();

                await("the closed tab dropped").atMost(Duration.ofSeconds(20)).until(() -> events.clientCount() == 1);
                long after = tick.get();
                await("more pushes").atMost(Duration.ofSeconds(10)).until(() -> tick.get() > after + 3);
            }
            assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                    .noneMatch(m -> m.contains("SseClient has been terminated"));
        } finally {
            app.stop();
            events.close();
            root.detachAppender(logged);
        }
    }
}
