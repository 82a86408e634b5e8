package io.siteflow.agent.publish.kafka;

import java.util.concurrent.atomic.AtomicLong;

/** The mutable counters behind {@link PublishStats}; thread-safe. */
final class PublishCounters {
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong sent = new AtomicLong();
    final AtomicLong spooled = new AtomicLong();
    final AtomicLong replayed = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
}
