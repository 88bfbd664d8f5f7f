package io.apiary.ingest.config;

import io.apiary.ingest.serde.RegistrySettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * Every numeric setting of {@link IngestConfig#definition()} (INT, LONG, SHORT, DOUBLE), each with the
 * extremes a sweep tries: 0, 1, -1, its least and greatest valid values and one beyond each, its type's
 * largest and smallest values, a seeded random value inside its range (and NaN and infinity for a double).
 * The valid range is found from the setting's own validator, not written down here, so a new setting is
 * swept without a change to the tests.
 */
public final class NumericSettings {

    private NumericSettings() {}

    /**
     * One setting's extremes.
     *
     * @param name   the setting
     * @param type   its type
     * @param min    its least valid value other than a lone -1 (a special value)
     * @param max    its greatest valid value
     * @param values the values to try, as the text a settings file would hold
     */
    public record Extremes(String name, Type type, Number min, Number max, List<String> values) {}

    /** @return the extremes of every numeric setting, by name */
    public static List<Extremes> all() {
        ConfigDef definition = IngestConfig.definition();
        List<Extremes> out = new ArrayList<>();
        for (ConfigKey key : new java.util.TreeMap<>(definition.configKeys()).values()) {
            switch (key.type) {
                case INT, LONG, SHORT -> out.add(integral(key));
                case DOUBLE -> out.add(decimal(key));
                default -> {}
            }
        }
        return out;
    }

    /**
     * @param key   a setting
     * @param value a value of its type
     * @return whether the setting's validator accepts it
     */
    static boolean accepts(ConfigKey key, Object value) {
        if (key.validator == null) {
            return true;
        }
        try {
            key.validator.ensureValid(key.name, value);
            return true;
        } catch (ConfigException e) {
            return false;
        }
    }

    private static Extremes integral(ConfigKey key) {
        long typeMin =
                key.type == Type.INT ? Integer.MIN_VALUE : key.type == Type.SHORT ? Short.MIN_VALUE : Long.MIN_VALUE;
        long typeMax =
                key.type == Type.INT ? Integer.MAX_VALUE : key.type == Type.SHORT ? Short.MAX_VALUE : Long.MAX_VALUE;
        java.util.function.LongPredicate ok = v -> accepts(key, box(key.type, v));
        // seeds: 0, powers of two and of ten, the type's bounds; the valid values other than a lone -1 are one interval
        TreeSet<Long> seeds = new TreeSet<>(List.of(0L, typeMax));
        for (long p = 1; p > 0 && p <= typeMax; p <<= 1) {
            seeds.add(p);
        }
        for (long p = 1; p > 0 && p <= typeMax; p = p <= Long.MAX_VALUE / 10 ? p * 10 : -1) {
            seeds.add(p);
        }
        if (key.defaultValue instanceof Number n && n.longValue() >= 0) {
            seeds.add(n.longValue());
        }
        Long low = seeds.stream()
                .filter(ok::test)
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError(
                                key.name
                                        + ": no valid value among 0, powers of 2 and 10 and the default; the sweep cannot find its range"));
        Long lowRejected = seeds.lower(low);
        long min = lowRejected == null ? low : boundary(ok, low, lowRejected);
        Long high = seeds.descendingSet().stream().filter(ok::test).findFirst().orElseThrow();
        Long highRejected = seeds.higher(high);
        long max = highRejected == null ? high : boundary(ok, high, highRejected);
        TreeSet<Long> values = new TreeSet<>(List.of(0L, 1L, -1L, min, max, typeMax, typeMin));
        if (min > typeMin) {
            values.add(min - 1);
        }
        if (max < typeMax) {
            values.add(max + 1);
        }
        values.add(min
                + new SplittableRandom(seed(key.name)).nextLong(max - min + 1 > 0 ? max - min + 1 : Long.MAX_VALUE));
        List<String> texts = new ArrayList<>(values.stream()
                .filter(v -> v >= typeMin && v <= typeMax)
                .map(String::valueOf)
                .toList());
        // beyond the type itself: refused when parsed, naming the setting too
        texts.add(java.math.BigInteger.valueOf(typeMax)
                .add(java.math.BigInteger.ONE)
                .toString());
        return new Extremes(key.name, key.type, min, max, texts);
    }

    private static Extremes decimal(ConfigKey key) {
        java.util.function.DoublePredicate ok = v -> accepts(key, v);
        TreeSet<Double> seeds = new TreeSet<>(List.of(0.0, Double.MIN_VALUE, Double.MAX_VALUE));
        for (double p = 1e-12; p < 1e300; p *= 10) {
            seeds.add(p);
        }
        if (key.defaultValue instanceof Number n && n.doubleValue() >= 0) {
            seeds.add(n.doubleValue());
        }
        double low = seeds.stream().filter(ok::test).findFirst().orElseThrow();
        Double lowRejected = seeds.lower(low);
        double min = lowRejected == null ? low : decimalBoundary(ok, low, lowRejected);
        double high =
                seeds.descendingSet().stream().filter(ok::test).findFirst().orElseThrow();
        Double highRejected = seeds.higher(high);
        double max = highRejected == null ? high : decimalBoundary(ok, high, highRejected);
        double random = min + new SplittableRandom(seed(key.name)).nextDouble() * (max - min);
        List<Double> values = List.of(
                0.0,
                1.0,
                -1.0,
                min,
                Math.nextDown(min),
                max,
                Math.nextUp(max),
                random,
                Double.MAX_VALUE,
                -Double.MAX_VALUE,
                Double.POSITIVE_INFINITY,
                Double.NaN);
        return new Extremes(
                key.name,
                key.type,
                min,
                max,
                values.stream().distinct().map(String::valueOf).toList());
    }

    /**
     * Bisection between an accepted and a rejected value, in either order, over an interval on which the
     * validator changes its answer once.
     *
     * @return the accepted value next to the rejected ones
     */
    private static long boundary(java.util.function.LongPredicate ok, long accepted, long rejected) {
        while (Math.abs(accepted - rejected) > 1) {
            long mid = accepted + (rejected - accepted) / 2;
            if (ok.test(mid)) {
                accepted = mid;
            } else {
                rejected = mid;
            }
        }
        return accepted;
    }

    /** {@link #boundary(java.util.function.LongPredicate, long, long)} over doubles not below 0: their bits order as they do. */
    private static double decimalBoundary(java.util.function.DoublePredicate ok, double accepted, double rejected) {
        return Double.longBitsToDouble(boundary(
                bits -> ok.test(Double.longBitsToDouble(bits)),
                Double.doubleToLongBits(accepted),
                Double.doubleToLongBits(rejected)));
    }

    private static Object box(Type type, long value) {
        return switch (type) {
            case INT -> (int) value;
            case SHORT -> (short) value;
            default -> value;
        };
    }

    private static long seed(String name) {
        return io.apiary.ingest.testing.RandomCases.BASE_SEED * 31 + name.hashCode();
    }

    /**
     * @param name  a setting
     * @param value its value as text
     * @return the settings that make every component buildable offline, with that one setting
     */
    static Map<String, Object> withBase(String name, String value) {
        Map<String, Object> settings = new java.util.HashMap<>(BASE);
        settings.put(name, value);
        return settings;
    }

    /**
     * Offline settings: single-object framing (no registry needed), and yet a registry URL, so that the
     * registry's settings are built too (no request is made); the longest hot-partition window, so that
     * every linger is swept through the components rather than refused by the rule between the two.
     */
    static final Map<String, Object> BASE = Map.of(
            RegistrySettings.WIRE_FORMAT_WRITE,
            "single-object",
            RegistrySettings.REGISTRY_URL,
            "http://127.0.0.1:9",
            io.apiary.ingest.sink.HotPartitionSettings.SINK_HOT_WINDOW_MS,
            "3600000");
}
