package io.siteflow.processor.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Reads a server-sent event stream on a thread of its own; {@link #next} waits for an event by name. */
public final class SseReader implements AutoCloseable {
    record Event(String name, String data) {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final InputStream in;
    private final Thread reader;

    private SseReader(InputStream in) {
        this.in = in;
        this.reader = new Thread(this::read, "sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    public static SseReader open(String url) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                        .header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new IOException(url + ": HTTP " + r.statusCode());
        }
        return new SseReader(r.body());
    }

    private void read() {
        try (BufferedReader b = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String name = "message";
            StringBuilder data = new StringBuilder();
            for (String line = b.readLine(); line != null; line = b.readLine()) {
                if (line.isEmpty()) {
                    events.add(new Event(name, data.toString()));
                    name = "message";
                    data.setLength(0);
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                }
            }
        } catch (IOException e) {
            // closed
        }
    }

    /** The data of the next event called {@code name}, skipping others; fails after 10 s. */
    public String next(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Event e = events.poll(100, TimeUnit.MILLISECONDS);
            if (e != null && e.name().equals(name)) {
                return e.data();
            }
        }
        throw new AssertionError("no \"" + name + "\" event within 10 s");
    }

    /** The data of the next event of each name, in the order given (the order the stream sends them in). */
    public java.util.Map<String, String> firstOfEach(java.util.List<String> names) throws InterruptedException {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String name : names) {
            out.put(name, next(name));
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
