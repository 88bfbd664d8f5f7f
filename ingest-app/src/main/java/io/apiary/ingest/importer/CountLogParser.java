package io.apiary.ingest.importer;

import io.apiary.ingest.validation.EntranceCountValidator;
import io.apiary.ingest.validation.Rejection;
import io.apiary.ingest.validation.TimeLimits;
import io.apiary.schema.EntranceCount;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Turns an entrance-counter log into entrance-count samples ({@link EntranceCount}), the same
 * samples a live gateway sends to {@code hive.activity.v1}. Two layouts ({@link Layout}):
 * <ul>
 *   <li><b>interval counts</b> ({@link Intervals}): one line per counting interval, with a column
 *       of bees in and one of bees out; each line is one sample;</li>
 *   <li><b>event logs</b> ({@link Events}): one line per bee passing, with its time and its
 *       direction; passages are counted into fixed buckets that divide the hour, one sample per
 *       hive and bucket with at least one passage, its event time the bucket's last passage (so in
 *       the passages' own hour, and different for two parts of one bucket that two runs import)
 *       and its interval the bucket's length. Passages of one bucket in several files of one run
 *       add up.</li>
 * </ul>
 * A line whose time, hive, counts or direction cannot be read is rejected whole and reported with
 * its line number (a count must be a whole number from 0 to {@value EntranceCountValidator#MAX_BEES_PER_SAMPLE};
 * an empty count cell is not read as 0). Times follow {@link ReadingTimeParser}, daylight-saving
 * resolutions included. Two lines of an interval log with one hive and one interval end are a
 * duplicate: with the same counts an <em>exact duplicate</em>, sent once; with other counts a
 * <em>conflict</em>, reported with both lines, and only the sample the topology would keep is sent
 * (the greater by bees in, then bees out: {@code HourlyActivityProcessor}'s rule), so the result does
 * not depend on the order of the file.
 *
 * <p><b>Order and memory.</b> The whole file is read before anything is returned, and the
 * samples come out sorted by event time (then hive, then line): the topology closes an hour once
 * its partition's stream time has passed the hour's end plus the grace period, so sending a file
 * of several hives in its own order (one hive's year, then the next hive's) would make the second
 * hive's samples late. The heap therefore grows with the samples held (the figures per sample
 * are in docs/commands.md, import-counts); {@code maxSamples} bounds
 * them (for event logs: the buckets), and a file with more is refused with a message before
 * anything is sent. Not thread-safe; one parser per file.
 */
public final class CountLogParser {

    /** What the time of a line in an interval log marks. */
    public enum TimeMark {
        /** The end of the interval (what gateways send as event_time). */
        END,
        /** Its start: the sample's event time is the time plus the interval. */
        START
    }

    /** The shape of a count log. */
    public sealed interface Layout permits Intervals, Events {}

    /**
     * One line per counting interval.
     *
     * @param inColumn        header of the bees-in column, not null
     * @param outColumn       header of the bees-out column, not null
     * @param intervalSeconds length of every interval, seconds, 1 to {@value EntranceCountValidator#MAX_INTERVAL_SECONDS}
     * @param mark            what the time column marks, not null
     */
    public record Intervals(String inColumn, String outColumn, int intervalSeconds, TimeMark mark) implements Layout {
        /** @throws IllegalArgumentException if the interval is out of range or the columns are one */
        public Intervals {
            Objects.requireNonNull(inColumn, "inColumn");
            Objects.requireNonNull(outColumn, "outColumn");
            Objects.requireNonNull(mark, "mark");
            if (inColumn.equals(outColumn)) {
                throw new IllegalArgumentException(
                        "The bees-in and bees-out columns must differ, both were '" + inColumn + "'");
            }
            if (intervalSeconds < 1 || intervalSeconds > EntranceCountValidator.MAX_INTERVAL_SECONDS) {
                throw new IllegalArgumentException("The interval must be 1 to "
                        + EntranceCountValidator.MAX_INTERVAL_SECONDS + " s (a sample belongs to one hour), was "
                        + intervalSeconds);
            }
        }
    }

    /**
     * One line per passage.
     *
     * @param directionColumn header of the direction column, not null
     * @param inValues        cell values (compared ignoring case, trimmed) that mean "in", not empty
     * @param outValues       those that mean "out", not empty, none also in {@code inValues}
     * @param bucketSeconds   length of the buckets passages are counted in, seconds; a divisor of
     *                        3,600 so that no bucket spans two hours
     */
    public record Events(String directionColumn, Set<String> inValues, Set<String> outValues, int bucketSeconds)
            implements Layout {
        /** @throws IllegalArgumentException if a value set is empty, they overlap, or the bucket does not divide the hour */
        public Events {
            Objects.requireNonNull(directionColumn, "directionColumn");
            inValues = lowerCase(inValues, "in");
            outValues = lowerCase(outValues, "out");
            Set<String> both = inValues.stream().filter(outValues::contains).collect(Collectors.toSet());
            if (!both.isEmpty()) {
                throw new IllegalArgumentException("The direction values " + both + " mean both in and out");
            }
            if (bucketSeconds < 1 || 3_600 % bucketSeconds != 0) {
                throw new IllegalArgumentException("The bucket must be a number of seconds that divides an hour"
                        + " (1 to 3600: 60, 300, 600, 900, 3600...), so that no bucket spans two hours; was "
                        + bucketSeconds);
            }
        }

        private static Set<String> lowerCase(Set<String> values, String direction) {
            Set<String> lower =
                    values.stream().map(v -> v.trim().toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
            if (lower.isEmpty() || lower.contains("")) {
                throw new IllegalArgumentException("Give at least one non-empty direction value for " + direction);
            }
            return lower;
        }
    }

    /**
     * One sample and the lines it came from.
     *
     * @param count       the sample, as sent, not null
     * @param firstLine   first line that made it (1-based; the header is line 1)
     * @param lastLine    last such line (equal to {@code firstLine} for an interval log)
     * @param firstSource name of the file of the first line, or null when one file is read
     * @param lastSource  name of the file of the last line, or null when one file is read
     */
    public record Sample(EntranceCount count, long firstLine, long lastLine, String firstSource, String lastSource) {
        /**
         * A sample of one file.
         *
         * @param count     the sample, not null
         * @param firstLine first line that made it
         * @param lastLine  last line that made it
         */
        public Sample(EntranceCount count, long firstLine, long lastLine) {
            this(count, firstLine, lastLine, null, null);
        }

        /** @return {@code "12"}, {@code "12-40"}, {@code "a.csv:12-40"} or {@code "a.csv:12-b.csv:7"} */
        public String lines() {
            String first = (firstSource == null ? "" : firstSource + ":") + firstLine;
            if (Objects.equals(firstSource, lastSource)) {
                return firstLine == lastLine ? first : first + "-" + lastLine;
            }
            return first + "-" + (lastSource == null ? "" : lastSource + ":") + lastLine;
        }
    }

    /**
     * What one file gave, before the samples of all files are put together ({@link #finish}).
     *
     * @param rows          data rows read
     * @param passages      passages counted (event logs; 0 for interval logs)
     * @param rejectedRows  rows rejected whole
     * @param resolvedTimes daylight-saving times resolved by the chosen resolution, each reported
     * @param commentLines  lines skipped as comments
     * @param emptyRows     rows rejected (among {@code rejectedRows}) whose count cells (interval logs) or
     *                      direction cell (event logs) are all empty
     */
    public record FileTotals(
            long rows, long passages, long rejectedRows, long resolvedTimes, long commentLines, long emptyRows) {}

    /**
     * The samples of every file read.
     *
     * @param samples          the samples to send, sorted by {@link #TIME_ORDER}; unmodifiable
     * @param duplicates       exact duplicates left out (interval logs)
     * @param conflicts        conflicting duplicates (interval logs), each reported
     * @param rejectedPassages passages of event-log buckets over the limit of a sample, reported, not sent
     */
    public record Finished(List<Sample> samples, long duplicates, long conflicts, long rejectedPassages) {}

    /**
     * Totals of one file.
     *
     * @param rows            data rows read
     * @param passages        passages counted (event logs; 0 for interval logs)
     * @param samples         samples to send
     * @param rejectedRows    rows rejected whole (with the passages of an event-log bucket over the limit)
     * @param duplicates      exact duplicates left out (interval logs)
     * @param conflicts       conflicting duplicates (interval logs), each reported
     * @param resolvedTimes   daylight-saving times resolved by the chosen resolution, each reported
     * @param commentLines    lines skipped as comments
     */
    public record Totals(
            long rows,
            long passages,
            long samples,
            long rejectedRows,
            long duplicates,
            long conflicts,
            long resolvedTimes,
            long commentLines) {}

    /**
     * What a file gave.
     *
     * @param samples the samples, sorted by event time, then hive, then line; unmodifiable
     * @param totals  the totals
     */
    public record Result(List<Sample> samples, Totals totals) {}

    /** Thrown when a file holds more samples than the parser may hold. */
    public static final class TooManySamples extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooManySamples(String message) {
            super(message);
        }
    }

    /** Whole numbers, optionally with a zero fraction ({@code 12.0}) as spreadsheets write them. */
    private static final Pattern COUNT = Pattern.compile("\\+?(\\d+)(\\.0*)?");

    private final String timeColumn;
    private final ReadingTimeParser timeParser;
    private final CsvReadingParser.HiveSource hive;
    private final Layout layout;
    private final String gatewayId;
    private final char delimiter;
    private final Character commentMarker;
    private final long maxSamples;
    private final List<Sample> intervals = new ArrayList<>();
    /** per (hive, bucket start): in, out, first line, last line, index of first source, of last source, last passage ms */
    private final Map<BucketKey, long[]> buckets = new LinkedHashMap<>();

    private final List<String> sources = new ArrayList<>();
    private boolean finished;

    /**
     * @param timeColumn    header of the time column, not null
     * @param timeParser    how to read it, not null
     * @param hive          where the hive id comes from in {@link #parse} and {@link #checkHeader(Reader)}, not null
     * @param layout        interval counts or event log, not null
     * @param gatewayId     gateway id of every sample, not null
     * @param delimiter     field delimiter
     * @param commentMarker null, or the character that starts a comment line (see {@link CsvReadingParser})
     * @param maxSamples    most samples (interval logs) or buckets (event logs) held, positive
     * @throws IllegalArgumentException if the comment marker is one it cannot be, a column is named
     *                                  twice, or maxSamples is not positive
     */
    public CountLogParser(
            String timeColumn,
            ReadingTimeParser timeParser,
            CsvReadingParser.HiveSource hive,
            Layout layout,
            String gatewayId,
            char delimiter,
            Character commentMarker,
            long maxSamples) {
        CsvFiles.requireCommentMarker(commentMarker, delimiter);
        if (maxSamples < 1) {
            throw new IllegalArgumentException("The most samples held must be positive, was " + maxSamples);
        }
        this.timeColumn = Objects.requireNonNull(timeColumn);
        this.timeParser = Objects.requireNonNull(timeParser);
        this.hive = Objects.requireNonNull(hive);
        this.layout = Objects.requireNonNull(layout);
        this.gatewayId = Objects.requireNonNull(gatewayId);
        this.delimiter = delimiter;
        this.commentMarker = commentMarker;
        this.maxSamples = maxSamples;
        List<String> columns = columns(hive);
        if (columns.size() != Set.copyOf(columns).size()) {
            throw new IllegalArgumentException("One column is given two roles: " + columns);
        }
    }

    /**
     * Reads only the header line and checks it, so that a command can refuse a file before it
     * connects or sends anything.
     *
     * @param in the CSV; closed by the caller
     * @return whether a data line follows the header (as {@link CsvReadingParser#checkHeader})
     * @throws IllegalArgumentException if the file is empty or its header lacks a configured column,
     *                                  saying which columns it has
     * @throws UncheckedIOException if reading fails
     */
    public boolean checkHeader(Reader in) {
        return checkHeader(in, hive);
    }

    /**
     * As {@link #checkHeader(Reader)}, for a file whose hive ids come from elsewhere.
     *
     * @param in   the CSV; closed by the caller
     * @param hive where its hive ids come from, not null
     * @return whether a data line follows the header (as {@link CsvReadingParser#checkHeader})
     */
    public boolean checkHeader(Reader in, CsvReadingParser.HiveSource hive) {
        return CsvFiles.checkHeader(CsvFiles.open(in, delimiter, commentMarker), columns(hive));
    }

    /**
     * Reads a whole file and returns its samples: {@link #read} and {@link #finish} at once.
     *
     * @param in       the CSV with a header line; closed by the caller
     * @param problems receives each rejected row, resolved time and conflicting duplicate, in file order
     *                 (conflicts at the end), not null
     * @return the samples and totals
     * @throws IllegalArgumentException as {@link #checkHeader}
     * @throws UncheckedIOException if reading fails, naming the line
     * @throws TooManySamples if the file holds more than {@code maxSamples} samples or buckets
     */
    public Result parse(Reader in, Consumer<CsvReadingParser.Problem> problems) {
        FileTotals file = read(in, hive, null, problems);
        Finished all = finish(problems);
        return new Result(
                all.samples(),
                new Totals(
                        file.rows(),
                        file.passages(),
                        all.samples().size(),
                        file.rejectedRows() + all.rejectedPassages(),
                        all.duplicates(),
                        all.conflicts(),
                        file.resolvedTimes(),
                        file.commentLines()));
    }

    /**
     * Reads one file of several and holds its samples (event logs: adds its passages to the
     * buckets of earlier files, since passages of one hive add up whichever file they are in),
     * until {@link #finish}. Daylight-saving inference ({@code infer}) follows each file's own order.
     *
     * @param in       the CSV with a header line; closed by the caller
     * @param hive     where this file's hive ids come from, not null
     * @param source   the file's name, to label the lines of its samples, or null when one file is read
     * @param problems receives each rejected row and resolved time, in file order, not null
     * @return the file's totals
     * @throws IllegalArgumentException as {@link #checkHeader}
     * @throws IllegalStateException after {@link #finish}
     * @throws UncheckedIOException if reading fails, naming the line
     * @throws TooManySamples if the files so far hold more than {@code maxSamples} samples or buckets
     */
    public FileTotals read(
            Reader in, CsvReadingParser.HiveSource hive, String source, Consumer<CsvReadingParser.Problem> problems) {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        sources.add(source);
        int sourceIndex = sources.size() - 1;
        long[] totals = new long[8]; // rows, passages, empty rows, rejected, -, -, resolved, comments
        Map<String, Instant> previousTimes = new HashMap<>();
        CSVParser parser = CsvFiles.open(in, delimiter, commentMarker);
        totals[7] = CsvFiles.forEachRecord(parser, columns(hive), record -> {
            totals[0]++;
            long line = parser.getCurrentLineNumber();
            Row row = readRow(record, hive, line, previousTimes, problems, totals);
            if (row == null) {
                totals[3]++;
                return;
            }
            if (layout instanceof Intervals i) {
                if (intervals.size() >= maxSamples) {
                    throw tooMany(source, line);
                }
                long end = row.time.toEpochMilli() + (i.mark() == TimeMark.START ? i.intervalSeconds() * 1000L : 0);
                intervals.add(new Sample(
                        new EntranceCount(
                                row.hiveId, gatewayId, Instant.ofEpochMilli(end), row.in, row.out, i.intervalSeconds()),
                        line,
                        line,
                        source,
                        source));
            } else {
                Events e = (Events) layout;
                long bucketMs = e.bucketSeconds() * 1000L;
                long start = Math.floorDiv(row.time.toEpochMilli(), bucketMs) * bucketMs;
                long[] bucket = buckets.get(new BucketKey(row.hiveId, start));
                if (bucket == null) {
                    if (buckets.size() >= maxSamples) {
                        throw tooMany(source, line);
                    }
                    bucket = new long[] {0, 0, line, line, sourceIndex, sourceIndex, Long.MIN_VALUE};
                    buckets.put(new BucketKey(row.hiveId, start), bucket);
                }
                bucket[row.in > 0 ? 0 : 1]++;
                bucket[3] = line;
                bucket[5] = sourceIndex;
                bucket[6] = Math.max(bucket[6], row.time.toEpochMilli());
                totals[1]++;
            }
        });
        return new FileTotals(totals[0], totals[1], totals[3], totals[6], totals[7], totals[2]);
    }

    /**
     * Puts the samples of every file read together: interval logs without duplicates (across
     * files too), event logs one sample per bucket; sorted by {@link #TIME_ORDER}. Once only.
     *
     * @param problems receives each conflicting duplicate and each bucket over the limit, not null
     * @return the samples
     * @throws IllegalStateException if called twice
     */
    public Finished finish(Consumer<CsvReadingParser.Problem> problems) {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        finished = true;
        long[] totals = new long[8];
        List<Sample> samples = layout instanceof Events e
                ? fromBuckets(buckets, e, problems, totals)
                : withoutDuplicates(intervals, problems, totals);
        intervals.clear();
        buckets.clear();
        return new Finished(List.copyOf(samples), totals[4], totals[5], totals[3]);
    }

    private TooManySamples tooMany(String source, long line) {
        return new TooManySamples(
                "The input holds more than " + maxSamples + (layout instanceof Events ? " buckets" : " samples")
                        + " (at line " + (source == null ? "" : source + ":") + line
                        + "), more than this import holds in memory (about 200 to 300 bytes each) to send them in time"
                        + " order; nothing was sent. Split the file by time, or raise --max-samples (and the heap, -Xmx,"
                        + " with it)");
    }

    private record BucketKey(String hiveId, long start) {}

    private record Row(String hiveId, Instant time, int in, int out) {}

    private Row readRow(
            CSVRecord record,
            CsvReadingParser.HiveSource hive,
            long line,
            Map<String, Instant> previousTimes,
            Consumer<CsvReadingParser.Problem> problems,
            long[] totals) {
        if (!record.isConsistent()) {
            problems.accept(new CsvReadingParser.Problem(
                    line,
                    null,
                    "expected " + record.getParser().getHeaderMap().size() + " fields, found " + record.size()));
            return null;
        }
        String hiveId = hive.fixedId() != null ? hive.fixedId() : record.get(hive.column());
        if (hiveId.isEmpty()) {
            problems.accept(new CsvReadingParser.Problem(line, hive.column(), "no hive id"));
            return null;
        }
        if (layout instanceof Intervals i
                ? record.get(i.inColumn()).isEmpty()
                        && record.get(i.outColumn()).isEmpty()
                : record.get(((Events) layout).directionColumn()).isEmpty()
                        && !((Events) layout).inValues().contains("")
                        && !((Events) layout).outValues().contains("")) {
            totals[2]++; // rejected below, with the message of its first empty cell
        }
        int in;
        int out;
        if (layout instanceof Intervals i) {
            Integer bees = count(record, i.inColumn(), line, problems);
            if (bees == null) {
                return null;
            }
            in = bees;
            bees = count(record, i.outColumn(), line, problems);
            if (bees == null) {
                return null;
            }
            out = bees;
        } else {
            Events e = (Events) layout;
            String direction = record.get(e.directionColumn()).toLowerCase(Locale.ROOT);
            if (e.inValues().contains(direction)) {
                in = 1;
                out = 0;
            } else if (e.outValues().contains(direction)) {
                in = 0;
                out = 1;
            } else {
                problems.accept(new CsvReadingParser.Problem(
                        line,
                        e.directionColumn(),
                        "direction "
                                + CsvFiles.quote(record.get(e.directionColumn())) + " is neither in "
                                + sorted(e.inValues())
                                + " nor out " + sorted(e.outValues()) + " (--in-values, --out-values)"));
                return null;
            }
        }
        String text = record.get(timeColumn);
        try {
            ReadingTimeParser.Parsed parsed =
                    timeParser.parseWithNote(text, previousTimes.get(hiveId), layout instanceof Events);
            Rejection range = TimeLimits.checkRange(timeColumn, parsed.instant().toEpochMilli());
            if (range != null) {
                throw new java.time.DateTimeException(range.message() + ", the range the pipeline takes");
            }
            previousTimes.put(hiveId, parsed.instant());
            if (parsed.note() != null) {
                problems.accept(new CsvReadingParser.Problem(line, timeColumn, "resolved: " + parsed.note()));
                totals[6]++;
            }
            return new Row(hiveId, parsed.instant(), in, out);
        } catch (RuntimeException ex) {
            problems.accept(new CsvReadingParser.Problem(
                    line,
                    timeColumn,
                    "cannot read time " + CsvFiles.quote(text)
                            + " with the time format '" + timeParser.format() + "' (--time-format: "
                            + String.join(", ", ReadingTimeParser.NAMED_FORMATS) + " or a java.time pattern): "
                            + ex.getMessage()));
            return null;
        }
    }

    private static String sorted(Set<String> values) {
        return values.stream().sorted().toList().toString();
    }

    private static Integer count(
            CSVRecord record, String column, long line, Consumer<CsvReadingParser.Problem> problems) {
        String cell = record.get(column);
        java.util.regex.Matcher m = COUNT.matcher(cell);
        String problem = null;
        if (cell.isEmpty()) {
            problem = "empty cell, no count (a counter that saw no bee writes 0)";
        } else if (!m.matches()) {
            problem = cell.startsWith("-")
                    ? "a count of bees cannot be negative: " + CsvFiles.quote(cell)
                    : "not a whole number of bees: " + CsvFiles.quote(cell);
        } else if (m.group(1).length() > 9
                || Integer.parseInt(m.group(1)) > EntranceCountValidator.MAX_BEES_PER_SAMPLE) {
            problem = cell + " bees is more than the " + EntranceCountValidator.MAX_BEES_PER_SAMPLE
                    + " a sample may hold (a counter fault; the topology would reject it as OUT_OF_RANGE)";
        }
        if (problem != null) {
            problems.accept(new CsvReadingParser.Problem(line, column, problem));
            return null;
        }
        return Integer.parseInt(m.group(1));
    }

    /** The order samples are sent in: event time, then hive, then first line. */
    public static final Comparator<Sample> TIME_ORDER = Comparator.comparing(
                    (Sample s) -> s.count().getEventTime())
            .thenComparing(s -> s.count().getHiveId())
            .thenComparingLong(Sample::firstLine);

    private List<Sample> fromBuckets(
            Map<BucketKey, long[]> buckets, Events layout, Consumer<CsvReadingParser.Problem> problems, long[] totals) {
        List<Sample> samples = new ArrayList<>(buckets.size());
        buckets.forEach((key, b) -> {
            if (b[0] > EntranceCountValidator.MAX_BEES_PER_SAMPLE
                    || b[1] > EntranceCountValidator.MAX_BEES_PER_SAMPLE) {
                problems.accept(new CsvReadingParser.Problem(
                        b[2],
                        null,
                        "the " + layout.bucketSeconds()
                                + " s bucket of hive " + key.hiveId() + " from " + Instant.ofEpochMilli(key.start())
                                + " (lines "
                                + new Sample(null, b[2], b[3], sources.get((int) b[4]), sources.get((int) b[5])).lines()
                                + ") counts " + b[0] + " in and " + b[1]
                                + " out, more than the " + EntranceCountValidator.MAX_BEES_PER_SAMPLE
                                + " a sample may hold; not sent (use a smaller --bucket-seconds)"));
                totals[3] += b[0] + b[1];
                return;
            }
            // the bucket's last passage: inside the bucket's hour, so every passage counts in its own hour; and
            // two parts of one bucket imported by two runs (a log rotated within a bucket) have different
            // times, so the topology sums both instead of keeping the greater as a conflict
            samples.add(new Sample(
                    new EntranceCount(
                            key.hiveId(),
                            gatewayId,
                            Instant.ofEpochMilli(b[6]),
                            (int) b[0],
                            (int) b[1],
                            layout.bucketSeconds()),
                    b[2],
                    b[3],
                    sources.get((int) b[4]),
                    sources.get((int) b[5])));
        });
        samples.sort(TIME_ORDER);
        return samples;
    }

    private List<Sample> withoutDuplicates(
            List<Sample> samples, Consumer<CsvReadingParser.Problem> problems, long[] totals) {
        samples.sort(TIME_ORDER);
        List<Sample> kept = new ArrayList<>(samples.size());
        List<CsvReadingParser.Problem> conflicts = new ArrayList<>();
        Comparator<EntranceCount> greater =
                Comparator.comparingInt(EntranceCount::getBeesIn).thenComparingInt(EntranceCount::getBeesOut);
        int from = 0;
        while (from < samples.size()) {
            EntranceCount first = samples.get(from).count();
            int to = from + 1;
            while (to < samples.size()
                    && samples.get(to).count().getEventTime().equals(first.getEventTime())
                    && samples.get(to).count().getHiveId().equals(first.getHiveId())) {
                to++;
            }
            // one (hive, interval end): the first line of each distinct count is kept, the greatest is sent
            List<Sample> distinct = new ArrayList<>();
            for (Sample sample : samples.subList(from, to)) {
                if (distinct.stream().anyMatch(d -> greater.compare(d.count(), sample.count()) == 0)) {
                    totals[4]++;
                } else {
                    distinct.add(sample);
                }
            }
            Sample winner = distinct.stream()
                    .max(Comparator.comparing(Sample::count, greater))
                    .orElseThrow();
            Sample head = distinct.get(0);
            for (Sample other : distinct.subList(1, distinct.size())) {
                totals[5]++;
                EntranceCount a = head.count();
                EntranceCount b = other.count();
                conflicts.add(new CsvReadingParser.Problem(
                        other.firstLine(),
                        null,
                        "conflicting duplicate of line "
                                + head.lines() + ": hive " + b.getHiveId() + " interval ending " + b.getEventTime()
                                + ": "
                                + a.getBeesIn() + " in, " + a.getBeesOut() + " out (line " + head.lines() + ") and "
                                + b.getBeesIn() + " in, " + b.getBeesOut() + " out (line " + other.lines() + "); line "
                                + winner.lines() + " is sent, the greater, as the topology would keep"));
            }
            kept.add(winner);
            from = to;
        }
        conflicts.sort(Comparator.comparingLong(CsvReadingParser.Problem::line));
        conflicts.forEach(problems);
        return kept;
    }

    private List<String> columns(CsvReadingParser.HiveSource hive) {
        List<String> all = new ArrayList<>(List.of(timeColumn));
        if (hive.column() != null) {
            all.add(hive.column());
        }
        if (layout instanceof Intervals i) {
            all.add(i.inColumn());
            all.add(i.outColumn());
        } else {
            all.add(((Events) layout).directionColumn());
        }
        return all;
    }
}
