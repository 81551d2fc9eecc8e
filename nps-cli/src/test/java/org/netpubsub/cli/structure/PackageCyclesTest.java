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
 * classes use, over the main classes of every module on this test's classpath: all of them but
 * bench, a single package nothing depends on. Test classes are not checked.
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
