package io.apiary.ingest.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URL;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.StringLayout;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

/**
 * The layouts of the application's {@code log4j2.xml}, as {@code apiary.log.format} (set from
 * APIARY_LOG_FORMAT) selects them: the plain line carries the date, the JSON one is one ECS object
 * per line.
 */
class LogLayoutTest {

    private static final Instant AT = Instant.parse("2026-03-01T08:15:30.123Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void plain_line_starts_with_the_iso_8601_date_and_time_with_milliseconds_and_offset() {
        String line = layout("plain").toSerializable(event("Sink started", null));

        assertThat(line)
                .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) INFO  "
                        + "\\[apiary-sink\\] CassandraSink - Sink started\\R");
        assertThat(OffsetDateTime.parse(line.substring(0, line.indexOf(' '))).toInstant())
                .isEqualTo(AT);
    }

    @Test
    void plain_is_the_default_when_the_property_is_unset() {
        String line = layout(null).toSerializable(event("Sink started", null));

        assertThat(OffsetDateTime.parse(line.substring(0, line.indexOf(' '))).toInstant())
                .isEqualTo(AT);
    }

    @Test
    void json_event_is_one_ecs_object_on_one_line_with_the_stack_trace_in_one_field() throws Exception {
        Exception thrown = new IllegalStateException("write refused", new RuntimeException("node down"));

        String line = layout("json").toSerializable(event("Write failed\nfor partition 3", thrown));

        assertThat(line).endsWith("\n");
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode event = JSON.readTree(line);
        assertThat(fieldNames(event))
                .containsExactlyInAnyOrder(
                        "@timestamp",
                        "ecs.version",
                        "log.level",
                        "message",
                        "process.thread.name",
                        "log.logger",
                        "error.type",
                        "error.message",
                        "error.stack_trace",
                        "service.name");
        assertThat(event.get("@timestamp").asText()).isEqualTo("2026-03-01T08:15:30.123Z");
        assertThat(event.get("log.level").asText()).isEqualTo("ERROR");
        assertThat(event.get("log.logger").asText()).isEqualTo("io.apiary.ingest.sink.CassandraSink");
        assertThat(event.get("message").asText()).isEqualTo("Write failed\nfor partition 3");
        assertThat(event.get("service.name").asText()).isEqualTo("apiary-ingest");
        assertThat(event.get("error.type").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(event.get("error.message").asText()).isEqualTo("write refused");
        assertThat(event.get("error.stack_trace").asText())
                .startsWith("java.lang.IllegalStateException: write refused")
                .contains("\tat io.apiary.ingest.logging.LogLayoutTest.")
                .contains("Caused by: java.lang.RuntimeException: node down");
    }

    @Test
    void json_event_without_a_throwable_has_no_error_fields() throws Exception {
        JsonNode event = JSON.readTree(layout("json").toSerializable(event("Sink started", null)));

        assertThat(fieldNames(event)).doesNotContain("error.type", "error.message", "error.stack_trace");
        assertThat(event.get("log.level").asText()).isEqualTo("INFO");
    }

    /** The layout of the {@code stderr} appender of the application's log4j2.xml with the format property set. */
    private static StringLayout layout(String format) {
        String before = System.getProperty(LogEnvironment.FORMAT_PROPERTY);
        try {
            if (format == null) {
                System.clearProperty(LogEnvironment.FORMAT_PROPERTY);
            } else {
                System.setProperty(LogEnvironment.FORMAT_PROPERTY, format);
            }
            URL file = LogLayoutTest.class.getResource("/log4j2.xml");
            assertThat(file).as("log4j2.xml of ingest-app").isNotNull();
            XmlConfiguration configuration =
                    new XmlConfiguration(new LoggerContext("LogLayoutTest"), ConfigurationSource.fromUri(file.toURI()));
            configuration.initialize();
            return (StringLayout) configuration.getAppender("stderr").getLayout();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        } finally {
            if (before == null) {
                System.clearProperty(LogEnvironment.FORMAT_PROPERTY);
            } else {
                System.setProperty(LogEnvironment.FORMAT_PROPERTY, before);
            }
        }
    }

    private static LogEvent event(String message, Throwable thrown) {
        return Log4jLogEvent.newBuilder()
                .setLoggerName("io.apiary.ingest.sink.CassandraSink")
                .setLevel(thrown == null ? Level.INFO : Level.ERROR)
                .setThreadName("apiary-sink")
                .setTimeMillis(AT.toEpochMilli())
                .setMessage(new SimpleMessage(message))
                .setThrown(thrown)
                .build();
    }

    private static List<String> fieldNames(JsonNode event) {
        List<String> names = new ArrayList<>();
        event.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
