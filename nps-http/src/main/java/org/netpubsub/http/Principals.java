package org.netpubsub.http;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The principals file (docs/security.md): a YAML map with one key, {@code principals}, a list of
 * {@code {name, token_sha256, hosts, subscribe, advertise, edges, admin}}. Immutable once parsed; a
 * request's principal is found by the SHA-256 of its bearer token.
 */
public final class Principals {
  private static final Set<String> KEYS =
      Set.of("name", "token_sha256", "hosts", "subscribe", "advertise", "edges", "admin");
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  private final Map<String, Principal> byHash;
  private final Map<String, Principal> byName = new HashMap<>();

  private Principals(Map<String, Principal> byHash) {
    this.byHash = Map.copyOf(byHash);
    byHash.values().forEach(p -> byName.put(p.name(), p));
  }

  /** The principal named {@code name}, if the file holds one (a reload's re-cut asks). */
  public Optional<Principal> byName(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The principal holding {@code token}, if any. */
  public Optional<Principal> byToken(String token) {
    return Optional.ofNullable(byHash.get(Tokens.sha256(token)));
  }

  public int size() {
    return byHash.size();
  }

  /**
   * Parses the file's text; {@code regions} checks each region (a filter) and throws on a bad one.
   * Every refusal is an {@link IllegalArgumentException} naming the principal and the field.
   */
  public static Principals parse(String yaml, Consumer<String> regions) {
    Object root;
    try {
      LoaderOptions o = new LoaderOptions();
      o.setAllowDuplicateKeys(false);
      o.setMaxAliasesForCollections(10);
      root = new Yaml(o).load(yaml);
    } catch (YAMLException e) {
      throw new IllegalArgumentException(
          "not YAML: " + e.getMessage().lines().findFirst().orElse(""));
    }
    if (!(root instanceof Map<?, ?> m) || !m.keySet().equals(Set.of("principals"))) {
      throw new IllegalArgumentException("expected a map with one key, 'principals'");
    }
    if (!(m.get("principals") instanceof List<?> list)) {
      throw new IllegalArgumentException("'principals' must be a list");
    }
    Map<String, Principal> byHash = new HashMap<>();
    Set<String> names = new HashSet<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> p)) {
        throw new IllegalArgumentException("each principal must be a map");
      }
      String name = text(p, "name", "principal");
      if (!NAME.matcher(name).matches() || !names.add(name)) {
        throw new IllegalArgumentException(
            "principal name '" + name + "' must be unique, 1-64 of letters, digits and . _ @ -");
      }
      for (Object k : p.keySet()) {
        if (!KEYS.contains(String.valueOf(k))) {
          throw new IllegalArgumentException(
              name + ": unknown field '" + k + "'; expected " + new java.util.TreeSet<>(KEYS));
        }
      }
      String hash = text(p, "token_sha256", name).toLowerCase(Locale.ROOT);
      if (!HASH.matcher(hash).matches()) {
        throw new IllegalArgumentException(name + ": token_sha256 must be 64 hex digits");
      }
      List<HostPrefix> hosts = new ArrayList<>();
      for (String h : strings(p, "hosts", name)) {
        try {
          hosts.add(HostPrefix.parse(h));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(name + ": hosts: " + e.getMessage());
        }
      }
      Optional<String> subscribe = region(p, "subscribe", name, regions);
      Optional<String> advertise = region(p, "advertise", name, regions);
      Set<Principal.Admin> admin = EnumSet.noneOf(Principal.Admin.class);
      for (String a : strings(p, "admin", name)) {
        try {
          admin.add(Principal.Admin.valueOf(a.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              name + ": admin: '" + a + "' is not one of hosts, groups, edges, index, read");
        }
      }
      Principal pr =
          new Principal(
              name, hosts, subscribe, advertise, Set.copyOf(strings(p, "edges", name)), admin);
      if (byHash.put(hash, pr) != null) {
        throw new IllegalArgumentException(name + ": token_sha256 is another principal's too");
      }
    }
    return new Principals(byHash);
  }

  private static Optional<String> region(
      Map<?, ?> p, String field, String name, Consumer<String> check) {
    Object v = p.get(field);
    if (v == null) {
      return Optional.empty();
    }
    String f = text(p, field, name);
    try {
      check.accept(f);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(name + ": " + field + ": " + e.getMessage());
    }
    return Optional.of(f);
  }

  private static String text(Map<?, ?> p, String field, String name) {
    Object v = p.get(field);
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException(name + ": " + field + " must be a non-empty string");
    }
    return s;
  }

  private static List<String> strings(Map<?, ?> p, String field, String name) {
    Object v = p.get(field);
    List<String> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    if (!(v instanceof List<?> l)) {
      throw new IllegalArgumentException(name + ": " + field + " must be a list of strings");
    }
    for (Object x : l) {
      if (!(x instanceof String s)) {
        throw new IllegalArgumentException(name + ": " + field + " must be a list of strings");
      }
      out.add(s);
    }
    return out;
  }
}
