package org.netpubsub.cli.structure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  /**
   * The cycles known today, each as the one upward edge that closes it, and who removes it. The
   * check fails when such an edge is gone or closes no cycle any more: then delete its entry. A new
   * cycle never belongs here: invert the dependency instead.
   */
  static final Map<List<String>, String> ALLOWED =
      Map.of(
          // PubSubService and the PLEROMA engines use NetworkController and FlowContributor:
          // the flow service (#22 part 1, helper "flowsvc") removes this edge
          List.of("org.netpubsub.controller.pubsub", "org.netpubsub.controller.app"),
          "flowsvc",
          // MulticastGroups and LinkLoadMonitor use NetworkController and FlowContributor: the
          // flow service (helper "flowsvc") removes it
          List.of("org.netpubsub.controller.multicast", "org.netpubsub.controller.app"),
          "flowsvc",
          // AgentCore, ReliableDelivery and EdgeAgent use overlay's DatagramLink and WanEmulation:
          // they move to a package both use (#22 part 4, helper "security")
          List.of("org.netpubsub.edge.broker", "org.netpubsub.edge.overlay"),
          "security");

  private static final Pattern EDGE =
      Pattern.compile("^\\s+(org\\.netpubsub\\S*)\\s+->\\s+(org\\.netpubsub\\S*)\\s");

  @Test
  void noPackageCycleButTheKnownOnes() {
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
            "org.netpubsub.cli");
    ALLOWED.forEach(
        (edge, owner) -> {
          if (graph.has(edge.get(0), edge.get(1))) {
            System.out.println(
                "known package cycle, allowed until "
                    + owner
                    + " merges: "
                    + String.join(" -> ", edge));
          }
        });
    assertThat(graph.problems(ALLOWED.keySet())).isEmpty();
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
