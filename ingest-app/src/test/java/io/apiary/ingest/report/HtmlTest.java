package io.apiary.ingest.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlTest {

    @Test
    void should_escape_markup_characters_when_text_is_hostile() {
        // Given
        String hostile = "<a href='x'>\"Tom & Jerry\"</a>";

        // When
        String escaped = Html.escape(hostile);

        // Then
        assertThat(escaped).isEqualTo("&lt;a href=&#39;x&#39;&gt;&quot;Tom &amp; Jerry&quot;&lt;/a&gt;");
    }

    @Test
    void should_replace_characters_xml_forbids_when_text_holds_controls_or_lone_surrogates() {
        // Given
        String hostile = "a\u0000b\u0007c\td\ne\uD800f\uFFFF";

        // When
        String escaped = Html.escape(hostile);

        // Then
        assertThat(escaped).isEqualTo("a\uFFFDb\uFFFDc\td\ne\uFFFDf\uFFFD");
    }

    @Test
    void should_keep_surrogate_pairs_when_text_holds_emoji() {
        // When
        String escaped = Html.escape("bee \uD83D\uDC1D");

        // Then
        assertThat(escaped).isEqualTo("bee \uD83D\uDC1D");
    }

    @Test
    void should_give_empty_text_when_text_is_null() {
        // When / Then
        assertThat(Html.escape(null)).isEmpty();
    }
}
