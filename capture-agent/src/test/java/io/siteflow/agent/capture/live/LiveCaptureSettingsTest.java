package io.siteflow.agent.capture.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Settings are checked before libpcap is touched, so these run without an interface or root. */
class LiveCaptureSettingsTest {

    @Test
    void defaultsToSnaplen256A64MiBRingAnd250MsTimeout() {
        LiveCaptureSettings s = new LiveCaptureSettings.Mutable("ens3").freeze();
        assertThat(s).isEqualTo(new LiveCaptureSettings("ens3", 256, 64 * 1024 * 1024, 250, false, ""));
    }

    @Test
    void rejectsSnaplenOutOfRange() {
        assertThatThrownBy(() -> LiveCapture.builder("ens3").snaplen(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("snaplen 0 is out of range (64-262144)");
    }

    @Test
    void refusesTheSnaplensTheCommandLineRefuses() {
        assertThatThrownBy(() -> LiveCapture.builder("ens3").snaplen(63).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("snaplen 63 is out of range (64-262144)");
        assertThatThrownBy(() -> LiveCapture.builder("ens3").snaplen(262_145).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("snaplen 262145 is out of range (64-262144)");
    }

    @Test
    void rejectsABufferOutOfRange() {
        assertThatThrownBy(() -> LiveCapture.builder("ens3").bufferBytes(4096).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("buffer of 4096 bytes is out of range (65536-2146435072)");
        assertThatThrownBy(() -> LiveCapture.builder("ens3").bufferBytes(Integer.MAX_VALUE).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("buffer of 2147483647 bytes is out of range (65536-2146435072)");
    }

    @Test
    void rejectsATimeoutBelowOneMillisecond() {
        assertThatThrownBy(() -> LiveCapture.builder("ens3").timeoutMillis(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout 0 ms is out of range (at least 1)");
    }

    @Test
    void rejectsAnEmptyInterfaceName() {
        assertThatThrownBy(() -> LiveCapture.builder(" ").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("interface name is empty");
    }
}
