package dev.punctual.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * punctual-bom pins what a team's repository builds with. It is a standalone pom (a parent would hand a
 * team everything Punctual's own build pins), so its versions are written twice; this keeps them equal,
 * and keeps its list of Punctual's artifacts equal to the modules that are installed.
 */
class BomTest {

    private static final Path ROOT = repositoryRoot();

    @Test
    void theBomsVersions_areTheParentPomsVersions() throws Exception {
        Map<String, String> parent = properties(ROOT.resolve("pom.xml"));
        Map<String, String> bom = properties(ROOT.resolve("functions/bom/pom.xml"));

        assertThat(bom.get("punctual.version")).isEqualTo(projectVersion(ROOT.resolve("pom.xml")));
        assertThat(projectVersion(ROOT.resolve("functions/bom/pom.xml"))).isEqualTo(bom.get("punctual.version"));
        for (String library : List.of(
                "aws-sdk.version",
                "junit.version",
                "assertj.version",
                "aws-cdk-lib.version",
                "constructs.version",
                "slf4j.version")) {
            assertThat(bom.get(library)).as(library).isNotNull().isEqualTo(parent.get(library));
        }
        assertThat(Files.readString(ROOT.resolve("functions/bom/pom.xml")))
                .as("the spotless plugin's version")
                .contains("<version>" + parent.get("spotless.version") + "</version>");
    }

    @Test
    void theBomLists_exactlyTheArtifactsThatAreInstalled() throws Exception {
        List<String> managed = new ArrayList<>();
        Document bom = parse(ROOT.resolve("functions/bom/pom.xml"));
        NodeList dependencies = bom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            if (text(dependency, "groupId").equals("dev.punctual")) {
                managed.add(text(dependency, "artifactId"));
            }
        }

        assertThat(new TreeSet<>(managed)).isEqualTo(installedJarModules());
    }

    /** Every module that builds a jar and is installed (not marked maven.install.skip). */
    private static TreeSet<String> installedJarModules() throws Exception {
        TreeSet<String> installed = new TreeSet<>();
        try (Stream<Path> poms = Stream.concat(
                Files.list(ROOT.resolve("functions")).map(m -> m.resolve("pom.xml")),
                Stream.of(ROOT.resolve("infra/pom.xml")))) {
            for (Path pom : poms.filter(Files::isRegularFile).toList()) {
                Document document = parse(pom);
                Element project = document.getDocumentElement();
                String packaging = childText(project, "packaging");
                boolean skipped = properties(pom)
                        .getOrDefault("maven.install.skip", "false")
                        .equals("true");
                if ((packaging == null || packaging.equals("jar")) && !skipped) {
                    installed.add(childText(project, "artifactId"));
                }
            }
        }
        return installed;
    }

    private static Map<String, String> properties(Path pom) throws Exception {
        Map<String, String> found = new TreeMap<>();
        Element project = parse(pom).getDocumentElement();
        for (Node child = project.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element properties && properties.getTagName().equals("properties")) {
                for (Node p = properties.getFirstChild(); p != null; p = p.getNextSibling()) {
                    if (p instanceof Element property) {
                        found.put(
                                property.getTagName(), property.getTextContent().strip());
                    }
                }
            }
        }
        return found;
    }

    static String projectVersion(Path pom) throws Exception {
        return childText(parse(pom).getDocumentElement(), "version");
    }

    private static String childText(Element parent, String tag) {
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getTagName().equals(tag)) {
                return element.getTextContent().strip();
            }
        }
        return null;
    }

    private static String text(Element parent, String tag) {
        String value = childText(parent, tag);
        return value == null ? "" : value;
    }

    private static Document parse(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("functions/bom/pom.xml"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root").isNotNull();
        return dir;
    }
}
