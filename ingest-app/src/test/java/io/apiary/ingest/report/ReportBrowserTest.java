package io.apiary.ingest.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import io.apiary.ingest.testing.ExternalTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders reports in a real headless Chromium at 1280 px and checks what a reader sees: nothing wider than the
 * window (every table fits, no column cut), no two texts of a chart overlapping, times in the display zone with
 * its offset, unit symbols. Needs {@code chromium} on {@code PATH} (Debian: {@code apt-get install chromium});
 * skipped with a message naming it where absent, failed where {@code REQUIRE_TEST_TOOLS} names it (CI). Leaves
 * full-page screenshots in {@code target/report-screenshots/}.
 */
class ReportBrowserTest {

    private static final int WIDTH = 1280;
    private static final ZoneId TORONTO = ZoneId.of("America/Toronto");
    private static final Path SCREENSHOTS = Path.of("target", "report-screenshots");

    /** Measures the laid-out page and appends the figures as lines of a {@code <pre id="measured">}. */
    private static final String MEASURE = """
            <script>
            (function () {
              var out = ['height ' + document.documentElement.scrollHeight];
              document.querySelectorAll('details').forEach(function (d) { d.open = true; });
              out.push('viewport ' + window.innerWidth, 'page ' + document.documentElement.scrollWidth);
              document.querySelectorAll('.table-wrap').forEach(function (w) {
                out.push('table ' + w.firstElementChild.className + ' ' + w.scrollWidth + ' ' + w.clientWidth);
              });
              document.querySelectorAll('body *').forEach(function (e) {
                var r = e.getBoundingClientRect();
                if (r.width > 0 && r.right > window.innerWidth + 0.5) {
                  out.push('outside ' + e.tagName + '.' + (e.getAttribute('class') || ''));
                }
              });
              document.querySelectorAll('svg.chart').forEach(function (svg, c) {
                var texts = Array.prototype.map.call(svg.querySelectorAll('text'), function (t) {
                  return { text: t.textContent, box: t.getBoundingClientRect() };
                }).filter(function (t) { return t.box.width > 0; });
                out.push('texts ' + c + ' ' + texts.length);
                var edge = svg.getBoundingClientRect().left;
                texts.forEach(function (t) {
                  if (t.box.left < edge - 0.5) { out.push('cut ' + c + ' [' + t.text + ']'); }
                });
                for (var i = 0; i < texts.length; i++) {
                  for (var j = i + 1; j < texts.length; j++) {
                    var a = texts[i].box, b = texts[j].box;
                    var x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                    var y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                    if (x > 0.5 && y > 0.5) {
                      out.push('overlap ' + c + ' [' + texts[i].text + '] [' + texts[j].text + '] '
                          + JSON.stringify([a.left, a.top, a.right, a.bottom, b.left, b.top, b.right, b.bottom]));
                    }
                  }
                }
              });
              var pre = document.createElement('pre');
              pre.id = 'measured';
              pre.textContent = out.join('\\n');
              document.body.appendChild(pre);
            })();
            </script>
            """;

    private static String chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        chromium = Stream.of("chromium", "chromium-browser", "google-chrome")
                .map(ExternalTools::find)
                .filter(p -> p != null)
                .findFirst()
                .orElse(null);
        if (chromium == null) {
            ExternalTools.require(
                    "rendering the HTML report in a headless browser", "Debian: apt-get install chromium", "chromium");
        }
    }

    @Test
    void should_fit_1280_pixels_without_overlapping_texts_when_six_sensors_cross_a_daylight_saving_change()
            throws Exception {
        // Given: six sensors (three of one type), a week in Toronto across the end of daylight saving time
        HiveReport report = report(LocalDate.of(2021, 11, 3), LocalDate.of(2021, 11, 9), TORONTO, 6);

        // When
        Measured page = render(report, "six-sensors-toronto-dst-end");

        // Then
        assertFits(page);
        assertThat(page.text())
                .contains("hour (America/Toronto, UTC\u221205:00 and UTC\u221204:00)")
                .contains("2021-11-07 01:00 UTC\u221204:00")
                .contains("2021-11-07 01:00 UTC\u221205:00")
                .contains("(\u00B0C)")
                .contains("(%RH)")
                .contains("(kg)")
                .doesNotContain("degC");
    }

    @Test
    void should_fit_1280_pixels_and_show_local_hours_when_four_sensors_are_shown_in_summer() throws Exception {
        // Given
        HiveReport report = report(LocalDate.of(2021, 7, 12), LocalDate.of(2021, 7, 18), TORONTO, 4);

        // When
        Measured page = render(report, "four-sensors-toronto-summer");

        // Then
        assertFits(page);
        assertThat(page.text())
                .contains("hour (America/Toronto, UTC\u221204:00)")
                .contains("2021-07-12 17:00")
                .contains("Note: the hourly bees in and out are simulated");
    }

    @Test
    void should_fit_1280_pixels_when_eight_sensors_have_long_ids_and_values_near_a_billion() throws Exception {
        // Given: eight sensors with 30-character ids, one of them reading around 1e9
        HiveReport report = report(LocalDate.of(2021, 7, 12), LocalDate.of(2021, 7, 13), TORONTO, 8, true);

        // When
        Measured page = render(report, "eight-sensors-long-ids");

        // Then
        assertFits(page);
        assertThat(page.lines("cut"))
                .as("value labels cut at a chart's left edge")
                .isEmpty();
    }

    @Test
    void should_fit_1280_pixels_when_the_report_is_in_utc() throws Exception {
        // Given
        HiveReport report = report(LocalDate.of(2021, 7, 12), LocalDate.of(2021, 7, 18), ZoneOffset.UTC, 4);

        // When
        Measured page = render(report, "four-sensors-utc");

        // Then
        assertFits(page);
        assertThat(page.text()).contains("hour (UTC)").contains("2021-07-12 21:00");
    }

    private static void assertFits(Measured page) {
        assertThat(page.value("viewport")).isEqualTo(WIDTH);
        assertThat(page.value("page")).as("the page's width").isLessThanOrEqualTo(WIDTH);
        assertThat(page.lines("outside"))
                .as("elements reaching past the window's right edge")
                .isEmpty();
        List<String> tables = page.lines("table");
        assertThat(tables).as("tables measured").hasSizeGreaterThanOrEqualTo(2);
        for (String table : tables) {
            String[] parts = table.split(" ");
            int scroll = Integer.parseInt(parts[parts.length - 2]);
            int client = Integer.parseInt(parts[parts.length - 1]);
            assertThat(scroll)
                    .as("scroll width against visible width of " + table)
                    .isLessThanOrEqualTo(client);
        }
        assertThat(page.lines("texts")).as("charts measured").hasSizeGreaterThanOrEqualTo(2);
        assertThat(page.lines("overlap")).as("overlapping texts in a chart").isEmpty();
    }

    /** A page as Chromium laid it out: the measurement lines and the text of the body. */
    private record Measured(List<String> measured, String text) {

        int value(String key) {
            return Integer.parseInt(lines(key).get(0).split(" ")[1]);
        }

        List<String> lines(String key) {
            return measured.stream().filter(l -> l.startsWith(key + " ")).toList();
        }
    }

    private Measured render(HiveReport report, String name) throws IOException, InterruptedException {
        String html = HtmlReport.render(report);
        Path plain = dir.resolve(name + ".html");
        Files.writeString(plain, html, StandardCharsets.UTF_8);
        Path measuring = dir.resolve(name + "-measuring.html");
        Files.writeString(measuring, html.replace("</body>", MEASURE + "</body>"), StandardCharsets.UTF_8);

        String dom = run(
                "--window-size=" + WIDTH + ",1000",
                "--dump-dom",
                measuring.toUri().toString());
        Matcher measured = Pattern.compile("<pre id=\"measured\">(.*?)</pre>", Pattern.DOTALL)
                .matcher(dom);
        assertThat(measured.find())
                .as("the measurement in Chromium's DOM of " + name)
                .isTrue();
        List<String> lines = measured.group(1).lines().toList();
        String text = dom.replaceAll("(?s)<script.*?</script>", "")
                .replaceAll("(?s)<style.*?</style>", "")
                .replaceAll("<br/?>", "")
                .replaceAll("<[^>]+>", "")
                .replace("&amp;", "&");

        int height = Integer.parseInt(lines.stream()
                .filter(l -> l.startsWith("height "))
                .findFirst()
                .orElseThrow()
                .split(" ")[1]);
        Files.createDirectories(SCREENSHOTS);
        Path png = SCREENSHOTS.resolve(name + ".png").toAbsolutePath();
        run(
                "--window-size=" + WIDTH + "," + Math.min(height, 16_000),
                "--hide-scrollbars",
                "--screenshot=" + png,
                plain.toUri().toString());
        assertThat(png).as("the screenshot").isNotEmptyFile();
        Path top = SCREENSHOTS.resolve(name + "-top.png").toAbsolutePath();
        run(
                "--window-size=" + WIDTH + ",2000",
                "--hide-scrollbars",
                "--screenshot=" + top,
                plain.toUri().toString());
        return new Measured(lines, text);
    }

    private String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                chromium,
                "--headless",
                "--no-sandbox", // the tests may run as root (CI); the page is our own file
                "--disable-gpu",
                "--no-first-run",
                "--user-data-dir=" + dir.resolve("profile")));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectError(dir.resolve("chromium.log").toFile())
                .start();
        byte[] out = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as("chromium finished")
                .isTrue();
        assertThat(process.exitValue())
                .as("chromium's exit code; its log: " + Files.readString(dir.resolve("chromium.log")))
                .isZero();
        return new String(out, StandardCharsets.UTF_8);
    }

    /**
     * @return a week of one hive: {@code sensors} sensors (three temperature sensors, two humidity, a weight, then
     *         more temperature), a reading every 10 minutes with a daily cycle, hourly bees with a daytime peak
     */
    private static HiveReport report(LocalDate first, LocalDate last, ZoneId zone, int sensors) {
        return report(first, last, zone, sensors, false);
    }

    private static HiveReport report(LocalDate first, LocalDate last, ZoneId zone, int sensors, boolean longIds) {
        TimeRange range = TimeRange.days(first, last, zone);
        String[][] kinds = {
            {"TEMPERATURE", "brood", "degC"},
            {"HUMIDITY", "inside", "%RH"},
            {"WEIGHT", "default", "kg"},
            {"TEMPERATURE", "outside", "degC"},
            {"HUMIDITY", "outside", "%RH"},
            {"TEMPERATURE", "roof", "degC"},
            {"TEMPERATURE", "floor", "degC"},
            {"CO2", "default", "ppm"},
        };
        Random random = new Random(42);
        List<TelemetryRow> readings = new ArrayList<>();
        for (int s = 0; s < sensors; s++) {
            String[] kind = kinds[s % kinds.length];
            for (long t = range.fromMillis(); t < range.toMillis(); t += 600_000L) {
                double day = Math.sin(2 * Math.PI * (t % 86_400_000L) / 86_400_000.0);
                double value = switch (kind[0]) {
                    case "HUMIDITY" -> 70 + 25 * day + random.nextDouble() * 3;
                    case "WEIGHT" -> 48.25 + 0.4 * day + random.nextDouble() * 0.05;
                    case "CO2" -> longIds ? 1e9 + random.nextInt(37) : 800 + 400 * day;
                    default -> 22 + 8 * day + random.nextDouble();
                };
                readings.add(new TelemetryRow(
                        "3627",
                        kind[0],
                        longIds ? (kind[1] + "_north_wall_shade_probe_b_xyz").substring(0, 30) : kind[1],
                        Instant.ofEpochMilli(t),
                        Math.round(value * 100) / 100.0,
                        kind[2],
                        "gw"));
            }
        }
        List<ActivityRow> activity = new ArrayList<>();
        for (long t = range.fromMillis(); t < range.toMillis(); t += 3_600_000L) {
            Instant hour = Instant.ofEpochMilli(t);
            int utcHour = hour.atZone(ZoneOffset.UTC).getHour();
            long bees = Math.max(0, Math.round(1200 * Math.sin(Math.PI * (utcHour - 10) / 14.0)));
            activity.add(new ActivityRow(
                    "3627", hour.atZone(ZoneOffset.UTC).toLocalDate(), utcHour, bees, bees + random.nextInt(20), 60));
        }
        return new HiveReport(
                "3627",
                range,
                readings,
                activity,
                Instant.parse("2021-12-01T12:00:00Z"),
                "1,000 readings from 14 partitions of hive_telemetry_v2 (14 requests) in 0.40 s",
                "the hourly bees in and out are simulated by the demo, not measured.",
                zone);
    }
}
