package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.apiary.ingest.testing.RandomCases;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sink's faster text codec writes exactly the bytes of the driver's own. */
class SinkTableTextTest {

    static Stream<Arguments> strings() {
        return RandomCases.cases(random -> new Object[] {text(random)});
    }

    /** Mixes ASCII, Latin-1, other BMP characters and supplementary ones (valid surrogate pairs). */
    private static String text(SplittableRandom random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(40);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(4)) {
                case 0 -> s.append((char) random.nextInt(0x20, 0x7F));
                case 1 -> s.append((char) random.nextInt(0xA0, 0x100));
                case 2 -> s.append((char) random.nextInt(0x100, 0xD800));
                default -> s.appendCodePoint(random.nextInt(0x10000, 0x110000));
            }
        }
        return s.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strings")
    void encodes_as_the_driver_does_and_decodes_back(String seed, String value) {
        ByteBuffer ours = SinkTable.TEXT.encode(value, ProtocolVersion.DEFAULT);
        assertThat(ours).isEqualTo(TypeCodecs.TEXT.encode(value, ProtocolVersion.DEFAULT));
        assertThat(SinkTable.TEXT.decode(ours, ProtocolVersion.DEFAULT)).isEqualTo(value);
    }

    @Test
    void null_stays_null() {
        assertThat(SinkTable.TEXT.encode(null, ProtocolVersion.DEFAULT)).isNull();
        assertThat(SinkTable.TEXT.getCqlType()).isEqualTo(TypeCodecs.TEXT.getCqlType());
    }
}
