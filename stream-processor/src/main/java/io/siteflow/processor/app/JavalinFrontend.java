package io.siteflow.processor.app;

import io.siteflow.processor.http.ApiServer;
import io.siteflow.processor.http.HttpInstanceClient;
import io.siteflow.processor.query.InstanceClient;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link HttpFrontend} of {@code siteflow process} (the wiring of the {@code http} package into the runtime): an
 * {@link ApiServer} over the runtime's queries, its local store view for the other instances, and its
 * Prometheus registry, on {@code --http-bind}:{@code --http-port} with {@code --http-token}. Nothing is served
 * when the port is 0. Other instances are reached with {@link HttpInstanceClient} and the same token.
 * Start once; {@link #close} is idempotent. Thread-safe.
 */
public final class JavalinFrontend implements HttpFrontend {
    private final AtomicReference<Optional<String>> token = new AtomicReference<>(Optional.empty());
    private final InstanceClient client = new HttpInstanceClient(token::get);
    private ApiServer server;

    public JavalinFrontend() {
    }

    @Override
    public synchronized void start(ProcessorRuntime rt) {
        ProcessorSettings s = rt.settings();
        token.set(s.httpToken().isEmpty() ? Optional.empty() : Optional.of(s.httpToken()));
        if (s.httpPort() <= 0 || server != null) {
            return;
        }
        server = new ApiServer(new ApiServer.Settings(s.httpBind(), s.httpPort(), token.get(), 2000, s.allowedHosts()),
                rt.queries(), Optional.of(rt.queries().local()), rt.registry()::scrape, rt.whatIf()).start();
    }

    @Override
    public InstanceClient instanceClient() {
        return client;
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
