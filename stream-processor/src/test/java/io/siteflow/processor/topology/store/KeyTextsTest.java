package io.siteflow.processor.topology.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyTextsTest {
    private record Key(String server, int port) {
    }

    @Test
    void buildsEachTextOnceAndGivesTheSameInstance() {
        AtomicInteger built = new AtomicInteger();
        KeyTexts<Key> texts = new KeyTexts<>(k -> {
            built.incrementAndGet();
            return k.server() + "|" + k.port();
        });

        String first = texts.of(new Key("10.2.0.20", 1521));
        String again = texts.of(new Key("10.2.0.20", 1521));

        assertThat(first).isEqualTo("10.2.0.20|1521");
        assertThat(again).isSameAs(first);
        assertThat(texts.of(new Key("10.2.0.20", 7001))).isEqualTo("10.2.0.20|7001");
        assertThat(built.get()).isEqualTo(2);
    }

    @Test
    void startsAgainBeyondItsSizeAndStillGivesTheRightText() {
        KeyTexts<Key> texts = new KeyTexts<>(k -> k.server() + "|" + k.port(), 2);
        String a = texts.of(new Key("a", 1));
        texts.of(new Key("b", 2));
        texts.of(new Key("c", 3)); // full: the texts go

        String a2 = texts.of(new Key("a", 1));

        assertThat(a2).isEqualTo(a).isNotSameAs(a);
    }
}
