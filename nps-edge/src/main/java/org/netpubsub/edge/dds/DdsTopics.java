package org.netpubsub.edge.dds;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a DDS topic becomes an overlay topic: {@code dds/<topic name>/<type name>/<type hash>}, the
 * type hash being the 14-byte hash of the complete XTypes TypeObject (its TypeIdentifier) in hex.
 * Sites meet on a key only with the identical type, so the remote site builds its topic from a
 * local endpoint announcing that very TypeObject. Pure.
 */
public final class DdsTopics {
  /** One overlay key taken apart. */
  public record Key(String topic, String typeName, String typeHash) {}

  private DdsTopics() {}

  /** The key's parts, or empty when it is not a DDS key (a malformed key from the sidecar). */
  public static Optional<Key> parse(String key) {
    if (!key.startsWith("dds/")) {
      return Optional.empty();
    }
    int h = key.lastIndexOf('/');
    int t = key.lastIndexOf('/', h - 1);
    if (t <= 3 || h <= t + 1) {
      return Optional.empty();
    }
    String topic = key.substring(4, t);
    String hash = key.substring(h + 1);
    if (topic.isEmpty()
        || !hash.matches("[0-9a-f]{28}")
        || topic.indexOf('+') >= 0
        || topic.indexOf('#') >= 0) {
      return Optional.empty();
    }
    return Optional.of(new Key(topic, key.substring(t + 1, h), hash));
  }

  public static String key(Key k) {
    return "dds/" + k.topic() + "/" + k.typeName() + "/" + k.typeHash();
  }

  /**
   * The local keys whose DDS topic name some other key in the tree uses with another type (name or
   * definition): DDS's inconsistent topic across sites. Such keys never exchange a sample (their
   * keys differ); this only finds them to report.
   */
  public static Set<String> conflicts(Collection<String> local, Collection<String> tree) {
    Map<String, Set<String>> byTopic = new HashMap<>(); // DDS topic name -> keys in the tree
    for (String k : tree) {
      parse(k).ifPresent(p -> byTopic.computeIfAbsent(p.topic(), x -> new HashSet<>()).add(k));
    }
    Set<String> out = new HashSet<>();
    for (String l : local) {
      Optional<Key> a = parse(l);
      Set<String> same = a.isEmpty() ? Set.of() : byTopic.getOrDefault(a.get().topic(), Set.of());
      if (same.size() > (same.contains(l) ? 1 : 0)) {
        out.add(l);
      }
    }
    return out;
  }
}
