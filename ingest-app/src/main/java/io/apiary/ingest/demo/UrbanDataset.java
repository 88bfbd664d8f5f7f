package io.apiary.ingest.demo;

import io.apiary.ingest.importer.CsvReadingParser;
import io.apiary.ingest.importer.ReadingTimeParser;
import io.apiary.ingest.importer.SensorColumn;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The real in-hive readings bundled with the application: UrBAN (Urban Beehive Acoustics and
 * PheNotyping Dataset), Montreal apiary, 2021, temperature (degC) and relative humidity (%RH) of
 * 7 hives; CC BY 4.0, attribution in {@code data/urban-montreal/SOURCE.txt}. The file has
 * duplicate and conflicting rows, as real gateways send. Thread-safe (immutable after load).
 */
public final class UrbanDataset {

    /** Classpath location of the CSV. */
    public static final String RESOURCE = "/data/urban-montreal/sensor_2021.csv";
    /** The apiary's time zone (Montreal's in the tz database), the demo report's display zone. */
    public static final ZoneId ZONE = ZoneId.of("America/Toronto");

    /** Gateway id given to its readings. */
    public static final String GATEWAY_ID = "urban-montreal";

    /**
     * First and last reading of one hive.
     *
     * @param first earliest reading time
     * @param last  latest reading time
     */
    public record HiveSpan(Instant first, Instant last) {}

    private final List<TelemetryReading> readings;
    private final Map<String, HiveSpan> spans;
    private final long rejected;

    private UrbanDataset(List<TelemetryReading> readings, Map<String, HiveSpan> spans, long rejected) {
        this.readings = readings;
        this.spans = spans;
        this.rejected = rejected;
    }

    /**
     * The parser for the UrBAN file layout: {@code Date} (UTC with offset), {@code Tag number},
     * {@code temperature}, {@code humidity}.
     *
     * @param gatewayId gateway id for the readings
     * @return a parser
     */
    public static CsvReadingParser parser(String gatewayId) {
        return new CsvReadingParser(
                "Date",
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss[XXX]", ZoneOffset.UTC),
                "Tag number",
                List.of(
                        new SensorColumn("temperature", SensorType.TEMPERATURE, "degC"),
                        new SensorColumn("humidity", SensorType.HUMIDITY, "%RH")),
                gatewayId,
                ',');
    }

    /**
     * Loads the bundled file.
     *
     * @return the readings in file order, with each hive's time span
     * @throws UncheckedIOException if the resource is missing or unreadable
     */
    public static UrbanDataset load() {
        List<TelemetryReading> readings = new ArrayList<>();
        Map<String, HiveSpan> spans = new TreeMap<>();
        long[] rejected = {0};
        try (InputStream in = UrbanDataset.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is missing from the application's classpath");
            }
            Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8);
            parser(GATEWAY_ID)
                    .parse(
                            reader,
                            r -> {
                                readings.add(r);
                                spans.merge(
                                        r.getHiveId(),
                                        new HiveSpan(r.getReadingTime(), r.getReadingTime()),
                                        (a, b) -> new HiveSpan(min(a.first(), b.first()), max(a.last(), b.last())));
                            },
                            problem -> rejected[0]++);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the bundled UrBAN data: " + e.getMessage(), e);
        }
        return new UrbanDataset(List.copyOf(readings), Map.copyOf(spans), rejected[0]);
    }

    /** @return the readings, in file order (duplicates included) */
    public List<TelemetryReading> readings() {
        return readings;
    }

    /** @return hive id to its first and last reading time */
    public Map<String, HiveSpan> spans() {
        return new TreeMap<>(spans);
    }

    /** @return rows or cells the parser rejected */
    public long rejected() {
        return rejected;
    }

    /**
     * @return distinct (hive, sensor type, sensor id, reading time) keys: the rows hive_telemetry_v2
     *         must end with
     */
    public long distinctReadings() {
        return readings.stream()
                .map(r -> r.getHiveId()
                        + '|'
                        + r.getSensorType()
                        + '|'
                        + r.getSensorId()
                        + '|'
                        + r.getReadingTime().toEpochMilli())
                .distinct()
                .count();
    }

    /**
     * @return readings whose value or unit differs from the first reading of their key (see
     *         {@link #distinctReadings}): conflicting duplicates, counted as {@code import-csv}
     *         reports them; hive_telemetry_v2 keeps one whole reading per key
     */
    public long conflictingReadings() {
        Map<String, String> first = new java.util.HashMap<>();
        long conflicting = 0;
        for (TelemetryReading r : readings) {
            String key = r.getHiveId()
                    + '|'
                    + r.getSensorType()
                    + '|'
                    + r.getSensorId()
                    + '|'
                    + r.getReadingTime().toEpochMilli();
            String value = Double.doubleToLongBits(r.getValue()) + "|" + r.getUnit();
            String earlier = first.putIfAbsent(key, value);
            if (earlier != null && !earlier.equals(value)) {
                conflicting++;
            }
        }
        return conflicting;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
