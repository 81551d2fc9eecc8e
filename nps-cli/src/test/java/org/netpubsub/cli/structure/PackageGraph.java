package org.netpubsub.cli.structure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Dependencies between packages (an edge a → b: a class of a uses one of b) and their cycles: the
 * strongly connected components of more than one package (Tarjan). Pure.
 */
public final class PackageGraph {
  private final Map<String, Set<String>> edges = new TreeMap<>();

  /** Adds a → b; a package's use of itself is no cycle and is ignored. */
  public PackageGraph add(String from, String to) {
    edges.computeIfAbsent(from, k -> new TreeSet<>());
    edges.computeIfAbsent(to, k -> new TreeSet<>());
    if (!from.equals(to)) {
      edges.get(from).add(to);
    }
    return this;
  }

  public boolean has(String from, String to) {
    return edges.getOrDefault(from, Set.of()).contains(to);
  }

  public Set<String> packages() {
    return edges.keySet();
  }

  public Set<String> uses(String from) {
    return edges.getOrDefault(from, Set.of());
  }

  /** The graph without the edges in {@code removed} (each {@code {from, to}}). */
  public PackageGraph without(Set<List<String>> removed) {
    PackageGraph g = new PackageGraph();
    edges.forEach(
        (from, tos) -> {
          g.edges.computeIfAbsent(from, k -> new TreeSet<>());
          for (String to : tos) {
            if (!removed.contains(List.of(from, to))) {
              g.add(from, to);
            }
          }
        });
    return g;
  }

  /** Whether {@code to} can be reached from {@code from} along one or more edges. */
  public boolean reaches(String from, String to) {
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>(uses(from));
    while (!todo.isEmpty()) {
      String p = todo.pop();
      if (p.equals(to)) {
        return true;
      }
      if (seen.add(p)) {
        todo.addAll(uses(p));
      }
    }
    return false;
  }

  /** The cycles: every strongly connected component of two or more packages, each sorted. */
  public List<Set<String>> cycles() {
    Tarjan t = new Tarjan();
    for (String p : edges.keySet()) {
      if (!t.index.containsKey(p)) {
        t.visit(p);
      }
    }
    return t.components;
  }

  private final class Tarjan {
    final Map<String, Integer> index = new HashMap<>();
    final Map<String, Integer> low = new HashMap<>();
    final Deque<String> stack = new ArrayDeque<>();
    final Set<String> onStack = new HashSet<>();
    final List<Set<String>> components = new ArrayList<>();

    void visit(String v) { // recursion depth ≤ the number of packages (about a hundred)
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      onStack.add(v);
      for (String w : uses(v)) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          components.add(component);
        }
      }
    }
  }

  /** The edges among {@code component}'s packages, "a -> b" each. */
  public List<String> edgesWithin(Set<String> component) {
    List<String> out = new ArrayList<>();
    for (String from : component) {
      for (String to : uses(from)) {
        if (component.contains(to)) {
          out.add(from + " -> " + to);
        }
      }
    }
    return out;
  }

  /**
   * What is wrong with this graph given the allowed edges (each {@code {from, to}}): every cycle
   * that remains without them, and every allowed edge that is gone or no longer closes a cycle (so
   * its entry must go). Empty when all is well.
   */
  public List<String> problems(Set<List<String>> allowed) {
    List<String> out = new ArrayList<>();
    PackageGraph rest = without(allowed);
    for (Set<String> cycle : rest.cycles()) {
      out.add("package cycle " + cycle + ": " + String.join(", ", rest.edgesWithin(cycle)));
    }
    for (List<String> edge : allowed) {
      String name = edge.get(0) + " -> " + edge.get(1);
      if (!has(edge.get(0), edge.get(1))) {
        out.add("allowed edge " + name + " is gone: remove it from the allowlist");
      } else if (!reaches(edge.get(1), edge.get(0))) {
        out.add("allowed edge " + name + " closes no cycle any more: remove it from the allowlist");
      }
    }
    return out;
  }
}
