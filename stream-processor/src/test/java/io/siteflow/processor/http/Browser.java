package io.siteflow.processor.http;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium driven by the Debian chromedriver (packages {@code chromium chromium-driver}):
 * nothing is downloaded. Screenshots go to {@code target/screenshots/}. A browser test starts with
 * {@link #assumeInstalled()}: without the browser it is skipped on a developer's machine, and fails under CI
 * ({@code CI=true}), where a skipped browser test would pass a build that tested no page.
 */
public final class Browser implements AutoCloseable {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    public final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    public static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** Why a browser test cannot run here. */
    static final String MISSING = "chromium and chromedriver not found at " + CHROMIUM + " and " + CHROMEDRIVER
            + " (apt-get install chromium chromium-driver)";

    /**
     * Returns when the browser is installed; else skips the test (a JUnit assumption), or fails it under CI.
     *
     * @throws IllegalStateException without the browser when the environment has {@code CI=true}
     */
    public static void assumeInstalled() {
        assumeInstalled(installed(), System.getenv());
    }

    /** {@link #assumeInstalled()} with what it reads given: whether the browser is installed, the environment. */
    static void assumeInstalled(boolean installed, Map<String, String> env) {
        if (installed) {
            return;
        }
        if ("true".equalsIgnoreCase(env.getOrDefault("CI", "").trim())) {
            throw new IllegalStateException(MISSING + "; CI=true: a browser test fails there instead of skipping");
        }
        Assumptions.abort(MISSING);
    }

    public static Browser start(int width, int height) throws IOException {
        Path profile = Files.createTempDirectory("siteflow-chromium");
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, o), profile);
    }

    /** Waits up to 15 s; an element replaced by a live update while it is read is read again. */
    public WebDriverWait waiting() {
        WebDriverWait w = new WebDriverWait(driver, Duration.ofSeconds(15));
        w.ignoring(StaleElementReferenceException.class);
        return w;
    }

    public void screenshot(String name) throws IOException {
        screenshotTo(Files.createDirectories(Path.of("target", "screenshots")).resolve(name + ".png"));
    }

    /** The system property that sends the README's screenshots to a directory ({@code ./siteflow screenshots}). */
    public static final String README_IMAGES = "siteflow.readme.images";

    /**
     * Where the README's screenshot {@code NAME.png} goes: {@code target/screenshots/} of the module under test, so
     * that running the tests never edits a tracked file; the directory given as {@code -Dsiteflow.readme.images=DIR}
     * (docs/images, by the explicit {@code ./siteflow screenshots}) when set. The directory is created.
     */
    public static Path readmeImage(String name) throws IOException {
        String dir = System.getProperty(README_IMAGES, "");
        Path d = dir.isBlank() ? Path.of("target", "screenshots") : Path.of(dir);
        return Files.createDirectories(d).resolve(name + ".png");
    }

    /**
     * Every word of the visible text (header, tabs, the view) whose letters lie on more than one line ("categ ory");
     * the parts of a hyphenated word count as words.
     */
    public static final String BROKEN_WORDS = """
            const broken = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const p = n.parentElement;
              if (!p || p.closest('[hidden]') || p.closest('script, style') || !p.getClientRects().length) continue;
              const re = /[^\\s-]+/g; // a line may end after a hyphen ("cross-site"), never inside a word
              let m;
              while ((m = re.exec(n.data))) {
                const r = document.createRange();
                r.setStart(n, m.index);
                r.setEnd(n, m.index + m[0].length);
                const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
                if (tops.size > 1) broken.push(m[0]);
              }
            }
            return broken;""";

    /** Sets the window so that its inside (what the page lays out in) is {@code width} × {@code height} CSS pixels. */
    public void resize(int width, int height) {
        var w = driver.manage().window();
        w.setSize(new org.openqa.selenium.Dimension(width, height));
        long inner = (Long) driver.executeScript("return window.innerWidth;");
        w.setSize(new org.openqa.selenium.Dimension(width + (int) (width - inner), height));
        waiting().until(x -> Long.valueOf(width).equals(driver.executeScript("return window.innerWidth;")));
    }

    /** A screenshot of the window's inside as PNG at {@code file} (replaced). */
    public void screenshotTo(Path file) throws IOException {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
