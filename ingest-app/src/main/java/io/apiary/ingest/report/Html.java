package io.apiary.ingest.report;

/**
 * Escapes text for the report's markup, which is HTML5 that is also well-formed XML. Stateless,
 * thread-safe.
 */
final class Html {

    private Html() {}

    /**
     * Text safe in element content and in double- or single-quoted attribute values.
     *
     * @param text any text, null for none
     * @return the text with {@code & < > " '} as character references and the characters XML 1.0
     *         does not allow (controls other than tab, line feed and carriage return; unpaired
     *         surrogates; U+FFFE, U+FFFF) replaced by U+FFFD; the empty string for null
     */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    if (Character.isHighSurrogate(c)
                            && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        out.append(c).append(text.charAt(++i));
                    } else if (allowedInXml(c)) {
                        out.append(c);
                    } else {
                        out.append('\uFFFD');
                    }
                }
            }
        }
        return out.toString();
    }

    private static boolean allowedInXml(char c) {
        if (c < 0x20) {
            return c == '\t' || c == '\n' || c == '\r';
        }
        return !Character.isSurrogate(c) && c != '\uFFFE' && c != '\uFFFF';
    }
}
