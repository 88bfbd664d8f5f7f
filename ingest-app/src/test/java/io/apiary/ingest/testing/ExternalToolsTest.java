package io.apiary.ingest.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class ExternalToolsTest {

    private static final String MISSING = "apiary-no-such-tool-7f3c";

    @Test
    void should_find_a_program_on_the_path_and_not_a_missing_one() {
        // sh is on PATH on every machine these tests run on (Maven's wrapper needs it)
        assertThat(ExternalTools.find("sh")).isNotNull().endsWith("/sh");
        assertThat(ExternalTools.find(MISSING)).isNull();
    }

    @Test
    void should_skip_naming_the_missing_tool_when_it_is_not_required() {
        assertThat(ExternalTools.required(System.getenv(ExternalTools.REQUIRE)))
                .as("this test needs %s not to require %s", ExternalTools.REQUIRE, MISSING)
                .doesNotContain("all", MISSING);
        assertThatThrownBy(() -> ExternalTools.require("doing something", "install it", "sh", MISSING))
                .isInstanceOf(TestAbortedException.class)
                .hasMessage(MISSING + " is not on PATH: skipped doing something (install it)");
    }

    @Test
    void should_skip_naming_the_python_packages_when_no_python3_imports_their_modules() {
        assertThat(ExternalTools.required(System.getenv(ExternalTools.REQUIRE)))
                .as("this test needs %s not to require %s", ExternalTools.REQUIRE, MISSING)
                .doesNotContain("all", MISSING);
        String module = MISSING.replace('-', '_');
        assertThatThrownBy(() -> ExternalTools.requirePython("doing something", "install it", MISSING, module))
                .isInstanceOf(TestAbortedException.class)
                .hasMessage(MISSING + " is not installed (no python3 imports " + module
                        + "): skipped doing something (install it)");
    }

    @Test
    void should_return_when_every_tool_is_there() {
        ExternalTools.require("doing something", "install it", "sh");
    }

    @Test
    void should_read_the_required_tools_as_a_trimmed_lower_case_list() {
        assertThat(ExternalTools.required(null)).isEmpty();
        assertThat(ExternalTools.required("  ")).isEmpty();
        assertThat(ExternalTools.required("kubectl, Node ,,npm")).containsExactlyInAnyOrder("kubectl", "node", "npm");
    }
}
