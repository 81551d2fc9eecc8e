package org.netpubsub.cli.structure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * No package cycle in the production classes, inside a module or across modules (issue #22 part 4).
 * jdeps, the JDK's dependency analyser (run in process), lists which packages each package's
 * classes use, over the main classes of every module on this test's classpath: all of them but the
 * JMH module bench. Test classes are not checked.
 *
 * <p>Why bench is left out: it has two packages, {@code org.netpubsub.bench} and one class in
 * {@code org.netpubsub.controller.app} ({@code OwnedStatesBenchmark}, beside the package-private
 * class it measures), and only as a test dependency of nps-cli would it be on this classpath; but
 * Maven's {@code -am} follows test dependencies, so every rebuild of the CLI jar ({@code ./nps}'s
 * {@code mvn -pl nps-cli -am package -DskipTests}, run by the test bed and test-cli) would compile
 * and shade the JMH benchmarks too. What that leaves unchecked is small: no module depends on
 * bench, so nothing outside it reaches {@code org.netpubsub.bench}, and a cycle through bench can
 * only come from the bench class in {@code controller.app} using a package that production {@code
 * controller.app} does not (today it uses only {@code controller.southbound} and {@code
 * network.layout}, {@code .openflow}, {@code .pleroma}, which production {@code controller.app}
 * uses too; jdeps over every module's classes, bench included, found no cycle at 5ec2afe3).
 */
class PackageCyclesTest {
  private static final Pattern EDGE =
      Pattern.compile("^\\s+(org\\.netpubsub\\S*)\\s+->\\s+(org\\.netpubsub\\S*)\\s");

  @Test
  void noPackageCycle() {
    PackageGraph graph = packageGraph(mainClassRoots());
    // the check sees every module, the lowest and the highest included
    assertThat(graph.packages())
        .contains(
            "org.netpubsub.content.address",
            "org.netpubsub.compiler.spec",
            "org.netpubsub.network.openflow",
            "org.netpubsub.client",
            "org.netpubsub.controller.app",
            "org.netpubsub.edge.broker",
            "org.netpubsub.bench.controller",
            "org.netpubsub.cli");
    // no allowlist: a new cycle is never allowed; invert the dependency instead
    assertThat(graph.problems(java.util.Set.of())).isEmpty();
  }

  /** The project's main class directories (or jars) on the classpath: no test classes. */
  static List<String> mainClassRoots() {
    List<String> roots = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry);
      String name = p.getFileName() == null ? "" : p.getFileName().toString();
      boolean classesDir =
          Files.isDirectory(p) && name.equals("classes") && p.getParent().endsWith("target");
      boolean moduleJar =
          name.matches("nps-[a-z]+(-[0-9][^/]*)?\\.jar") && !name.endsWith("-tests.jar");
      if (classesDir || moduleJar) {
        roots.add(entry);
      }
    }
    return roots;
  }

  /** The package dependencies among org.netpubsub packages in {@code roots}, as jdeps sees them. */
  static PackageGraph packageGraph(List<String> roots) {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    List<String> args = new ArrayList<>(List.of("-verbose:package", "-e", "org\\.netpubsub\\..*"));
    args.addAll(roots);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    assertThat(code).as("jdeps %s: %s", args, err).isZero();
    PackageGraph graph = new PackageGraph();
    for (String line : out.toString().split("\n")) {
      Matcher m = EDGE.matcher(line);
      if (m.find()) {
        graph.add(m.group(1), m.group(2));
      }
    }
    return graph;
  }
}
