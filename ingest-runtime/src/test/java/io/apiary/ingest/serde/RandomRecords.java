package io.apiary.ingest.serde;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/** Records of the generated classes with seeded random values, for round trips. Stateless. */
final class RandomRecords {

    private RandomRecords() {}

    /** A record of the schema with seeded random values (strings of 0 to 8 letters, every union branch). */
    static SpecificRecord of(Schema schema, Random random) {
        return (SpecificRecord) randomValue(schema, random);
    }

    private static Object randomValue(Schema schema, Random random) {
        switch (schema.getType()) {
            case RECORD: {
                SpecificRecord record = (SpecificRecord) SpecificData.get().newRecord(null, schema);
                for (Schema.Field field : schema.getFields()) {
                    record.put(field.pos(), randomValue(field.schema(), random));
                }
                return record;
            }
            case UNION:
                return randomValue(
                        schema.getTypes().get(random.nextInt(schema.getTypes().size())), random);
            case ENUM:
                return SpecificData.get()
                        .createEnum(
                                schema.getEnumSymbols()
                                        .get(random.nextInt(
                                                schema.getEnumSymbols().size())),
                                schema);
            case STRING: {
                StringBuilder text = new StringBuilder();
                for (int i = random.nextInt(9); i > 0; i--) {
                    text.append((char) ('a' + random.nextInt(26)));
                }
                return text.toString();
            }
            case INT:
                return schema.getLogicalType() != null
                        ? java.time.LocalDate.ofEpochDay(random.nextInt(20_000))
                        : random.nextInt();
            case LONG:
                return schema.getLogicalType() != null
                        ? java.time.Instant.ofEpochMilli(1_600_000_000_000L + random.nextInt(1_000_000_000))
                        : random.nextLong();
            case DOUBLE:
                return random.nextDouble() * 100;
            case FLOAT:
                return random.nextFloat();
            case BOOLEAN:
                return random.nextBoolean();
            case NULL:
                return null;
            case BYTES:
                byte[] bytes = new byte[random.nextInt(9)];
                random.nextBytes(bytes);
                return ByteBuffer.wrap(bytes);
            case ARRAY: {
                List<Object> items = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    items.add(randomValue(schema.getElementType(), random));
                }
                return items;
            }
            case MAP: {
                Map<String, Object> map = new java.util.HashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    map.put("k" + i, randomValue(schema.getValueType(), random));
                }
                return map;
            }
            default:
                throw new IllegalArgumentException("no random value for " + schema);
        }
    }
}
