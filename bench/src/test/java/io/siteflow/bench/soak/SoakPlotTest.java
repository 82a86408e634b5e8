package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakPlotTest {
    @Test
    void drawsAPngOfLagAndMemoryFromTheSeries(@TempDir Path dir) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path csv = dir.resolve("soak.csv");
        try (SoakSeries s = new SoakSeries(csv, List.of("p1_rss_mib", "p1_heap_after_gc_mib"))) {
            s.add(new SoakSeries.Row(0, "start", 0, 0, 0, 0, 0, -1, -1, -1, new double[] {300, Double.NaN}));
            s.add(new SoakSeries.Row(10.2, "load", 100, 90, 80, 9, 80, 120, 480, 600, new double[] {420.5, 95}));
        }
        Path png = dir.resolve("soak.png");

        SoakPlot.main(new String[] {csv.toString(), png.toString(), "test"});

        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(1200);
        assertThat(img.getHeight()).isEqualTo(40 + 2 * 380 + 20);
    }

    @Test
    void namesTheFileLineAndColumnOfABadValue(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "t_s,lag_p50_ms\n0,1\n10,fast\n");

        SoakPlot.Csv c = SoakPlot.Csv.read(csv);

        assertThatThrownBy(() -> c.column("lag_p50_ms")).hasMessage(csv + ":3: lag_p50_ms: \"fast\" is not a number");
        assertThatThrownBy(() -> c.column("lag_p99_ms")).hasMessage(csv + ": no column lag_p99_ms in the header");
    }

    @Test
    void stepsAxesInOnesTwosAndFives() {
        assertThat(SoakPlot.niceStep(600)).isEqualTo(100);
        assertThat(SoakPlot.niceStep(1000)).isEqualTo(200);
        assertThat(SoakPlot.niceStep(25)).isEqualTo(5);
    }

    @Test
    void writesCsvLinesWithEmptyFieldsForUnknownValues() {
        String line = SoakSeries.line(new SoakSeries.Row(10.25, "load", 5, 4, 3, 0.4, 2, 120, -1, 130,
                new double[] {1.25, Double.NaN}));

        assertThat(line).isEqualTo("10.3,load,5,4,3,0.4,2,120,,130,1.3,");
    }
}
