package dev.punctual.cli.init;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names a team repository is written with, each checked: a Maven group id, an artifact id (the
 * repository's name, which also names its Lambda jar) and the Java package of its jobs.
 *
 * @param groupId e.g. {@code com.acme}
 * @param artifactId e.g. {@code digest-jobs}
 * @param packageName e.g. {@code com.acme.digest}
 */
public record TeamCoordinates(String groupId, String artifactId, String packageName) {

    /** Dotted lower-case Java identifiers: valid as a Maven group id and as a package. */
    static final Pattern DOTTED = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");

    /** Lower case, digits and dashes, starting with a letter: valid in a jar's and a stack's name. */
    static final Pattern ARTIFACT = Pattern.compile("[a-z][a-z0-9-]{0,49}");

    /** Java's reserved words, which no package segment may be. */
    static final Set<String> RESERVED = Set.of(
            "abstract",
            "assert",
            "boolean",
            "break",
            "byte",
            "case",
            "catch",
            "char",
            "class",
            "const",
            "continue",
            "default",
            "do",
            "double",
            "else",
            "enum",
            "extends",
            "final",
            "finally",
            "float",
            "for",
            "goto",
            "if",
            "implements",
            "import",
            "instanceof",
            "int",
            "interface",
            "long",
            "native",
            "new",
            "package",
            "private",
            "protected",
            "public",
            "return",
            "short",
            "static",
            "strictfp",
            "super",
            "switch",
            "synchronized",
            "this",
            "throw",
            "throws",
            "transient",
            "try",
            "void",
            "volatile",
            "while",
            "true",
            "false",
            "null",
            "_",
            "var",
            "record",
            "yield",
            "sealed",
            "permits");

    public static final String DEFAULT_GROUP_ID = "com.example";

    /** What is wrong with one field, as a refusal line's tail, or empty when it is accepted. */
    public static Optional<String> problemWithGroupId(String value) {
        return dotted(value, "a Maven group id of dotted lower-case names, e.g. com.acme");
    }

    public static Optional<String> problemWithPackage(String value) {
        return dotted(value, "a Java package of dotted lower-case names, none a Java keyword, e.g. com.acme.jobs");
    }

    public static Optional<String> problemWithArtifactId(String value) {
        return ARTIFACT.matcher(value).matches()
                ? Optional.empty()
                : Optional.of("'" + value + "' is not accepted; accepted: lower-case letters, digits and dashes,"
                        + " starting with a letter, at most 50, e.g. digest-jobs");
    }

    /** The artifact id a directory's name suggests ({@code Digest_Jobs} gives {@code digest-jobs}), if any. */
    public static Optional<String> artifactIdFor(String directoryName) {
        String candidate = directoryName
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-")
                .replaceAll("^-+|-+$", "");
        return problemWithArtifactId(candidate).isEmpty() ? Optional.of(candidate) : Optional.empty();
    }

    /** {@code com.acme} and {@code digest-jobs} give {@code com.acme.digestjobs}. */
    public static String defaultPackage(String groupId, String artifactId) {
        String last = artifactId.replace("-", "");
        return groupId + "." + (RESERVED.contains(last) ? last + "s" : last);
    }

    private static Optional<String> dotted(String value, String accepted) {
        boolean valid = value.length() <= 200
                && DOTTED.matcher(value).matches()
                && Set.of(value.split("\\.")).stream().noneMatch(RESERVED::contains);
        return valid ? Optional.empty() : Optional.of("'" + value + "' is not accepted; accepted: " + accepted);
    }
}
