package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** Whether a browser test runs, skips or fails: it may skip for want of Chromium everywhere but under CI. */
class BrowserTest {
    static final String MISSING = "chromium and chromedriver not found at /usr/bin/chromium and /usr/bin/chromedriver"
            + " (apt-get install chromium chromium-driver)";

    @Test
    void runsWhenTheBrowserIsInstalledWithOrWithoutCi() {
        assertThatCode(() -> Browser.assumeInstalled(true, Map.of("CI", "true"))).doesNotThrowAnyException();
        assertThatCode(() -> Browser.assumeInstalled(true, Map.of())).doesNotThrowAnyException();
    }

    @Test
    void skipsWithoutTheBrowserOutsideCi() {
        assertThatThrownBy(() -> Browser.assumeInstalled(false, Map.of())).isInstanceOf(TestAbortedException.class)
                .hasMessage(MISSING);
        assertThatThrownBy(() -> Browser.assumeInstalled(false, Map.of("CI", "false")))
                .isInstanceOf(TestAbortedException.class);
    }

    @Test
    void failsWithoutTheBrowserUnderCi() {
        assertThatThrownBy(() -> Browser.assumeInstalled(false, Map.of("CI", "true")))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage(MISSING + "; CI=true: a browser test fails there instead of skipping");
        assertThatThrownBy(() -> Browser.assumeInstalled(false, Map.of("CI", "TRUE")))
                .isExactlyInstanceOf(IllegalStateException.class);
    }
}
