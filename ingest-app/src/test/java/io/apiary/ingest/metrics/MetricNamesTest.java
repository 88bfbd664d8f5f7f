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
 * The meter names are defined once ({@link MetricNames}), and what the documents and the
 * deployment files name (dotted, or as Prometheus scrapes them) is among them: a renamed meter
 * fails here until its documents follow.
 */
class MetricNamesTest {

    private static final Path ROOT = Path.of("..");

    private static Set<String> names() throws IllegalAccessException {
        Set<String> names = new TreeSet<>();
        for (Field field : MetricNames.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && !field.getName().startsWith("TAG_")) {
                names.add((String) field.get(null));
            }
        }
        return names;
    }

    /** The names Micrometer's Prometheus naming gives a meter: counters, gauges with a unit, timers, summaries. */
    private static Set<String> prometheusNames(String dotted) {
        String base = dotted.replace('.', '_');
        Set<String> out = new HashSet<>();
        for (String stem : List.of(base, base + "_seconds", base + "_records", base + "_rows", base + "_bytes")) {
            for (String suffix : List.of("", "_total", "_count", "_sum", "_max", "_bucket")) {
                out.add(stem + suffix);
            }
        }
        return out;
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>();
        documents.add(ROOT.resolve("README.md"));
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
            if (field.getName().startsWith("TAG_")) {
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
        Set<String> scraped = new HashSet<>();
        names.forEach(n -> scraped.addAll(prometheusNames(n)));
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
