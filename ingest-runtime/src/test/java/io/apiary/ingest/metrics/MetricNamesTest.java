package io.apiary.ingest.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The meter names are defined once ({@link MetricNames}), and what the README, docs/ and the
 * deployment files name (dotted, or as Prometheus scrapes them) is among them: a renamed meter
 * fails here until its documents follow.
 */
class MetricNamesTest {

    private static final Path ROOT = Path.of("..");

    private static boolean isMeter(Field field) {
        return !field.getName().startsWith("TAG_") && !field.getName().startsWith("UNIT_");
    }

    private static Set<String> names() throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Field field : MetricNames.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && isMeter(field)) {
                names.add((String) field.get(null));
            }
        }
        return names;
    }

    /**
     * The names Micrometer's Prometheus naming gives a meter of the type and unit its constant's
     * javadoc starts with (read from the source of {@link MetricNames}, e.g. {@code Gauge, rows:}): a
     * counter {@code _total}; a timer {@code _seconds} and its series; a distribution summary its
     * family (name and unit) and series; a gauge its name ending with its unit ({@code rows/s} as
     * {@code _rows_per_second}), a share with {@code _ratio}.
     */
    private static Set<String> prometheusNames(String dotted, String type, String unit) {
        String base = dotted.replace('.', '_');
        List<String> series = List.of("_count", "_sum", "_max", "_bucket");
        Set<String> out = new HashSet<>();
        switch (type) {
            case "Counter" -> out.add(base + "_total");
            case "Timer" -> {
                out.add(base + "_seconds");
                series.forEach(s -> out.add(base + "_seconds" + s));
            }
            case "Distribution" -> {
                out.add(withUnit(base, unit)); // the family, as docs name it
                series.forEach(s -> out.add(withUnit(base, unit) + s));
            }
            case "Gauge" -> out.add(withUnit(base, unit));
            default -> throw new AssertionError("no meter type in the javadoc of " + dotted + ": " + type);
        }
        return out;
    }

    private static String withUnit(String base, String unit) {
        assertThat(unit).as("the unit in the javadoc of " + base).isNotNull();
        String suffix = "_" + unit.replace("/s", "_per_second");
        return base.endsWith(suffix) ? base : base + suffix;
    }

    /**
     * @return meter name to the first word of its constant's javadoc (Counter, Gauge, Timer,
     *         Distribution) and the unit after its comma ({@code Gauge, rows/s:}), or null
     */
    private static java.util.Map<String, String[]> types() throws IOException {
        String source = Files.readString(Path.of(
                "..",
                "ingest-runtime",
                "src",
                "main",
                "java",
                "io",
                "apiary",
                "ingest",
                "metrics",
                "MetricNames.java"));
        Matcher m = Pattern.compile(
                        "/\\*\\*\\s*(?:\\*\\s*)?(\\w+)(?: summary)?(?:, ([a-z/]+):)?(?:(?!\\*/)[\\s\\S])*\\*/\\s*"
                                + "public static final String \\w+ =\\s*\"(apiary\\.[a-z.]+)\";")
                .matcher(source);
        java.util.Map<String, String[]> types = new java.util.HashMap<>();
        while (m.find()) {
            types.put(m.group(3), new String[] {m.group(1), m.group(2)});
        }
        return types;
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>();
        documents.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).forEach(documents::add);
        }
        try (Stream<Path> files = Files.walk(ROOT.resolve("deploy"))) {
            files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().matches(".*\\.(md|ya?ml|json|properties)$"))
                    .forEach(documents::add);
        }
        return documents;
    }

    @Test
    void namesAreUniqueAndPrefixed() throws IllegalAccessException {
        List<String> all = new ArrayList<>();
        for (Field field : MetricNames.class.getFields()) {
            all.add(field.getName() + "=" + field.get(null));
            String value = (String) field.get(null);
            if (field.getName().startsWith("UNIT_")) {
                assertThat(value).as(field.getName()).matches("[a-z]+(_per_second)?");
            } else if (field.getName().startsWith("TAG_")) {
                assertThat(value).as(field.getName()).matches("[a-z]+");
            } else {
                assertThat(value).as(field.getName()).matches("apiary(\\.[a-z]+)+");
            }
        }
        assertThat(all.stream().map(s -> s.substring(s.indexOf('=') + 1)))
                .as("no two constants share a name")
                .doesNotHaveDuplicates();
        assertThat(all).hasSizeGreaterThan(30);
    }

    @Test
    void everyMeterTheDocumentsNameIsDefined() throws IOException, IllegalAccessException {
        Set<String> names = names();
        java.util.Map<String, String[]> types = types();
        assertThat(types.keySet())
                .as("every meter's javadoc starts with its type")
                .isEqualTo(names);
        Set<String> scraped = new HashSet<>();
        names.forEach(n -> scraped.addAll(prometheusNames(n, types.get(n)[0], types.get(n)[1])));
        Pattern dotted = Pattern.compile("(-D)?(apiary\\.(?:sink|topology|dead|write)(?:\\.[a-z]+)*)(\\.\\*)?");
        Pattern underscored = Pattern.compile("apiary_(?:sink|topology|dead|write)[a-z_]*[a-z](_?\\*)?");
        List<String> unknown = new ArrayList<>();
        int checked = 0;
        for (Path document : documents()) {
            String text = Files.readString(document);
            Matcher m = dotted.matcher(text);
            while (m.find()) {
                if (m.group(1) != null) {
                    continue; // a system property, not a meter
                }
                String name = m.group(2);
                boolean known = m.group(3) != null
                        ? names.stream().anyMatch(n -> n.startsWith(name + "."))
                        : names.contains(name);
                checked++;
                if (!known) {
                    unknown.add(document + ": " + m.group());
                }
            }
            m = underscored.matcher(text);
            while (m.find()) {
                String found = m.group();
                boolean known = found.endsWith("*")
                        ? scraped.stream().anyMatch(n -> n.startsWith(found.replace("*", "")))
                        : scraped.contains(found);
                checked++;
                if (!known) {
                    unknown.add(document + ": " + found);
                }
            }
        }
        assertThat(unknown)
                .as("meter names in documents that MetricNames does not define")
                .isEmpty();
        assertThat(checked).as("mentions checked").isGreaterThan(20);
    }
}
