package org.netpubsub.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.network.multicast.Graph;

/**
 * NetworkX node-link JSON (as topohub ships the Internet Topology Zoo) read into a {@link Graph}.
 * Parsing lives here, not in the pure nps-network, which has no JSON library and reads no files.
 * Nodes are numbered in file order and keep their names; links to unknown ids are refused,
 * self-loops and repeated links (multigraphs) dropped. A disconnected graph is cut down to its
 * largest connected component, since trees cannot reach the rest.
 */
final class NodeLinkGraph {
  /** The graph, its nodes' names, and what the file held before it was cut down. */
  record Loaded(String source, Graph graph, List<String> names, int fileNodes, int droppedNodes) {}

  private NodeLinkGraph() {}

  /** {@code zoo:NAME} (topohub's data in the test bed's venv) or a node-link JSON file. */
  static Loaded load(String spec) {
    Path file = spec.startsWith("zoo:") ? zoo(spec.substring(4)) : Path.of(spec);
    String text;
    try {
      text = BoundedInput.file(file, "topology");
    } catch (org.netpubsub.content.InvalidInputException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return parse(text, spec);
  }

  static Loaded parse(String json, String source) {
    JsonNode root;
    try {
      root = JsonOutput.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(source + " is not JSON: " + e.getOriginalMessage(), e);
    }
    JsonNode nodes = root == null ? null : root.get("nodes");
    JsonNode links =
        root == null ? null : root.has("edges") ? root.get("edges") : root.get("links");
    if (nodes == null || !nodes.isArray() || links == null || !links.isArray()) {
      throw new IllegalArgumentException(
          source
              + " is not node-link JSON: it needs a \"nodes\" array and an \"edges\" or"
              + " \"links\" array");
    }
    Map<String, Integer> index = new HashMap<>();
    List<String> names = new ArrayList<>();
    for (JsonNode n : nodes) {
      JsonNode id = n.get("id");
      if (id == null || !id.isValueNode()) {
        throw new IllegalArgumentException(source + ": node " + n + " has no id");
      }
      if (index.putIfAbsent(id.asText(), names.size()) != null) {
        throw new IllegalArgumentException(source + ": node id " + id.asText() + " appears twice");
      }
      names.add(n.hasNonNull("name") ? n.get("name").asText() : id.asText());
    }
    Graph.Builder b = Graph.builder(names.size());
    for (JsonNode l : links) {
      int a = endpoint(index, l, "source", source);
      int z = endpoint(index, l, "target", source);
      if (a != z) {
        b.link(a, z);
      }
    }
    Graph whole = b.build();
    List<Integer> kept = whole.largestComponent();
    return new Loaded(
        source,
        whole.induced(kept),
        kept.stream().map(names::get).toList(),
        whole.size(),
        whole.size() - kept.size());
  }

  private static int endpoint(
      Map<String, Integer> index, JsonNode link, String end, String source) {
    JsonNode id = link.get(end);
    Integer i = id == null ? null : index.get(id.asText());
    if (i == null) {
      throw new IllegalArgumentException(
          source + ": link " + link + " has no known " + end + " node");
    }
    return i;
  }

  /** topohub's Topology Zoo file, under the repository's testbed/.venv. */
  static Path zoo(String name) {
    if (!name.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException("'" + name + "' is not a Topology Zoo network name");
    }
    Path lib = TestbedScript.home().resolve("testbed/.venv/lib");
    if (Files.isDirectory(lib)) {
      try (DirectoryStream<Path> pythons = Files.newDirectoryStream(lib, "python3*")) {
        for (Path p : pythons) {
          Path dir = p.resolve("site-packages/topohub/data/topozoo");
          if (Files.isDirectory(dir)) {
            Path file = dir.resolve(name + ".json");
            if (!Files.isRegularFile(file)) {
              throw new IllegalArgumentException(
                  "no Topology Zoo network '"
                      + name
                      + "' in "
                      + dir
                      + " (names are case-sensitive)");
            }
            return file;
          }
        }
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot list " + lib + ": " + e.getMessage(), e);
      }
    }
    throw new IllegalArgumentException(
        "no topohub data under "
            + lib
            + " (run scripts/bootstrap to create testbed/.venv, or pass a node-link JSON file)");
  }
}
