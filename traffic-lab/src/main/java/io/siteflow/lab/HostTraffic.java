package io.siteflow.lab;

import io.siteflow.synth.CoherencePayloads;
import io.siteflow.synth.DnsPayloads;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The traffic of one region-2 application server towards region 1: a pool of {@value #POOL} TNS connections
 * worked by {@value #DB_WORKERS} threads (SQL round trips: ~450 B calls, log-normal results, median 2 KiB,
 * cut to the deficit), and background streams: cluster T3 to wls1 and wls2, JMS over T3 (produce and consume), Coherence TMB
 * and TCMP datagrams, admin HTTP polls, DNS lookups. The DB threads make a round trip only while the host's
 * DB bytes on the wire ({@link WireCounter}) are below {@code share} of its cross-site bytes, so the mix
 * follows the target all along. Lifecycle: {@link #start}, {@link #stopBackground}, {@link #topUp},
 * {@link #close}, from one controlling thread; {@link #stopBackground} and {@link #close} are idempotent.
 */
final class HostTraffic implements Closeable {
    static final int POOL = 20;
    static final int DB_WORKERS = 3;

    private final String ns;
    private final LabHost host;
    private final double share;
    private final WireCounter counter;
    private final long seed;
    private final BlockingQueue<ClientSession> pool = new ArrayBlockingQueue<>(POOL);
    private final List<Closeable> background = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong errors = new AtomicLong();
    private final DbCallClock calls = new DbCallClock();
    private volatile boolean running;

    HostTraffic(String ns, LabHost host, double share, WireCounter counter, long seed) {
        this.ns = ns;
        this.host = host;
        this.share = share;
        this.counter = counter;
        this.seed = seed;
    }

    /** Opens the pool and the background connections, then starts every thread. */
    void start() throws Exception {
        Random r = new Random(seed);
        for (int i = 0; i < POOL; i++) {
            pool.add(ClientSession.open(ns, host, LabService.TNS, new Random(r.nextLong()), calls));
        }
        running = true;
        session(LabService.T3_WLS1, 400, 600, 2_500, 200, 600, r);
        session(LabService.T3_WLS2, 400, 600, 2_500, 200, 600, r);
        session(LabService.JMS_WLS1, 300, 800, 3_000, 120, 160, r);
        session(LabService.JMS_WLS2, 600, 150, 200, 800, 3_000, r);
        session(LabService.TMB, 500, 300, 1_500, 100, 400, r);
        session(LabService.ADMIN_HTTP, 1_000, 0, 0, 2_000, 6_000, r);
        UdpPeer tcmp = UdpPeer.open(ns, host, LabService.TCMP.port(), LabService.TCMP);
        background.add(tcmp);
        Random tr = new Random(r.nextLong());
        loop("tcmp", 200, tr, () -> tcmp.exchange(Wire.withReplySize(CoherencePayloads.tcmp(tr, 200 + tr.nextInt(1_200)),
                48)));
        Random dr = new Random(r.nextLong());
        loop("dns", 1_000, dr, () -> {
            try (UdpPeer dns = UdpPeer.open(ns, host, 0, LabService.DNS)) {
                dns.exchange(DnsPayloads.query(dr.nextInt(65_536), "wls1.fmw.lab.internal"));
            }
        });
        for (int i = 0; i < DB_WORKERS; i++) {
            Random wr = new Random(r.nextLong());
            thread("db-" + i, () -> dbWorker(wr));
        }
    }

    private void session(LabService s, int periodMillis, int reqMin, int reqMax, int repMin, int repMax, Random r)
            throws Exception {
        Random sr = new Random(r.nextLong());
        ClientSession c = ClientSession.open(ns, host, s, new Random(sr.nextLong()));
        background.add(c);
        loop(s.name().toLowerCase(), periodMillis, sr,
                () -> c.exchange(between(sr, reqMin, reqMax), between(sr, repMin, repMax)));
    }

    private static int between(Random r, int min, int max) {
        return max <= min ? min : min + r.nextInt(max - min + 1);
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step} every {@code periodMillis} ± 30% until {@link #stopBackground}. */
    private void loop(String name, int periodMillis, Random r, Step step) {
        thread(name, () -> {
            while (running) {
                try {
                    step.run();
                } catch (Exception e) {
                    if (running) {
                        errors.incrementAndGet();
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos((long) (periodMillis * (0.7 + 0.6 * r.nextDouble()))));
            }
        });
    }

    private void thread(String name, Runnable body) {
        Thread t = new Thread(body, "lab-" + host.name() + "-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void dbWorker(Random r) {
        while (running) {
            long d = deficit();
            if (d <= 0) {
                LockSupport.parkNanos(2_000_000);
                continue;
            }
            // a result no larger than this worker's part of the deficit: the share never overshoots by much
            double rows = Math.exp(Math.log(2_048) + r.nextGaussian());
            int reply = (int) Math.max(11, Math.min(Math.min(65_536, d / DB_WORKERS), rows));
            roundTrip(r, 350 + r.nextInt(200), reply);
        }
    }

    private void roundTrip(Random r, int call, int reply) {
        ClientSession c = null;
        try {
            c = pool.take();
            c.exchange(call, reply);
        } catch (IOException e) {
            errors.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (c != null) {
                pool.add(c);
            }
        }
    }

    /** DB IP bytes still missing for the share: x with (db + x) / (cross + x) = share. */
    private long deficit() {
        long cross = counter.crossBytes(host.address());
        long db = counter.dbBytes(host.address());
        return (long) ((share * cross - db) / (1 - share));
    }

    /** Ends the background streams and the DB threads, and closes the background connections. */
    void stopBackground() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(10_000);
        }
        threads.clear();
        for (Closeable c : background) {
            try {
                c.close();
            } catch (IOException e) {
                errors.incrementAndGet();
            }
        }
        background.clear();
    }

    /**
     * Makes single round trips sized to the remaining deficit until the DB share is reached; waits for the
     * counter to see each one's last packet before deciding again.
     */
    void topUp(Runnable settle) {
        Random r = new Random(seed ^ 0x5EED);
        long d;
        while ((d = deficit()) > 0) {
            int reply = (int) Math.max(11, Math.min(65_536, d * 0.9 - 700));
            roundTrip(r, 350, reply);
            settle.run();
        }
    }

    /** The host's DB calls as the lab made and timed them (complete once {@link #close} returned). */
    DbCallTruth dbCalls() {
        return calls.truth();
    }

    /** Errors in the traffic (connections that failed, lookups that were not answered). */
    long errors() {
        return errors.get();
    }

    /** Closes the DB pool. */
    @Override
    public void close() {
        for (ClientSession c : pool) {
            try {
                c.close();
            } catch (IOException e) {
                errors.incrementAndGet();
            }
        }
        pool.clear();
    }
}
