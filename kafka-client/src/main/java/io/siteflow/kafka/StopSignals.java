package io.siteflow.kafka;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action on SIGINT or SIGTERM instead of letting the JVM exit (which would exit with 130 or
 * 143), so a command can shut down cleanly and return 0. Uses {@code sun.misc.Signal} through
 * reflection (as Kafka's own {@code LoggingSignalHandler} does) to keep the build free of
 * internal-API warnings; falls back to a shutdown hook where signals cannot be handled.
 */
public final class StopSignals {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);

    private StopSignals() {
    }

    public static void onStop(Runnable action) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Constructor<?> signal = signalClass.getConstructor(String.class);
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Object handler = Proxy.newProxyInstance(StopSignals.class.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, args) -> {
                        if (method.getDeclaringClass() == Object.class) {
                            return method.invoke(action, args);
                        }
                        action.run();
                        return null;
                    });
            handle.invoke(null, signal.newInstance("INT"), handler);
            handle.invoke(null, signal.newInstance("TERM"), handler);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("cannot handle signals ({}); using a shutdown hook", e.toString());
            Runtime.getRuntime().addShutdownHook(new Thread(action, "stop-signal"));
        }
    }
}
