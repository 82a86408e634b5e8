package io.siteflow.lab;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Runs Java code inside a named network namespace ({@code /var/run/netns/NAME}): a fresh thread enters it
 * with {@code setns(2)} before running the code, so sockets and capture handles it opens live in that
 * namespace (and keep working from any thread afterwards). Needs root. Thread-safe.
 */
public final class Netns {
    private static final int CLONE_NEWNET = 0x4000_0000;
    private static final int O_RDONLY_CLOEXEC = 0x80000;

    private Netns() {
    }

    /** Runs {@code task} on a new thread inside {@code ns}, waits, and returns its result or rethrows its exception. */
    public static <T> T call(String ns, Callable<T> task) throws Exception {
        FutureTask<T> future = new FutureTask<>(() -> {
            enter(ns);
            return task.call();
        });
        Thread t = new Thread(future, "netns-" + ns);
        t.setDaemon(true);
        t.start();
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    /** Starts a daemon thread named {@code name} that enters {@code ns} and runs {@code body}. */
    public static Thread start(String ns, String name, Runnable body) {
        Thread t = new Thread(() -> {
            enter(ns);
            body.run();
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void enter(String ns) {
        int fd = LibC.INSTANCE.open("/var/run/netns/" + ns, O_RDONLY_CLOEXEC);
        try {
            LibC.INSTANCE.setns(fd, CLONE_NEWNET);
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }

    /** The three libc calls that enter a namespace. */
    private interface LibC extends Library {
        LibC INSTANCE = Native.load("c", LibC.class);

        int open(String path, int flags) throws LastErrorException;

        int setns(int fd, int nstype) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }
}
