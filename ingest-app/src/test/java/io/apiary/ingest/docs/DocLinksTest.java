package io.apiary.ingest.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents' links hold: every relative link of the README, docs/ and the other READMEs names
 * a file that exists, and every {@code #anchor} a heading of its target (GitHub's anchor rules:
 * lower case, punctuation but '-' and '_' dropped, spaces as '-'). The README was split into docs/
 * by audience; this keeps the pieces linked.
 */
class DocLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

    static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                .replace(' ', '-');
    }

    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }

    private static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        Matcher m = HEADING.matcher(withoutCode(Files.readString(file)));
        while (m.find()) {
            anchors.add(anchor(m.group(1)));
        }
        return anchors;
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(
                ROOT.resolve("README.md"),
                ROOT.resolve("deploy/README.md"),
                ROOT.resolve("schemas/README.md"),
                ROOT.resolve("ingest-jmh/README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        // the components' own READMEs (deploy/components/<component>/README.md)
        try (Stream<Path> components = Files.list(ROOT.resolve("deploy/components"))) {
            components
                    .map(dir -> dir.resolve("README.md"))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .forEach(documents::add);
        }
        return documents;
    }

    @Test
    void anchors_follow_githubs_rules() {
        assertThat(anchor("Changing a table's key: `table copy` and `table verify`"))
                .isEqualTo("changing-a-tables-key-table-copy-and-table-verify");
        assertThat(anchor("Capacity model: 170,000 writes/s at replication factor 3"))
                .isEqualTo("capacity-model-170000-writess-at-replication-factor-3");
    }

    @Test
    void every_relative_link_and_anchor_exists() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path document : documents()) {
            if (!Files.exists(document)) {
                continue;
            }
            Matcher m = LINK.matcher(withoutCode(Files.readString(document)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // http(s), mailto, file
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty()
                        ? document
                        : document.getParent().resolve(file).normalize();
                checked++;
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(document) + ": " + target + " (no such file)");
                } else if (hash >= 0
                        && resolved.toString().endsWith(".md")
                        && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(document) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
        assertThat(checked).as("links checked").isGreaterThan(50);
    }
}
