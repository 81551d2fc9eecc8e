package org.netpubsub.controller.southbound;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which datapath ids a switch certificate may claim over OpenFlow-TLS (pure; docs/security.md). A
 * certificate's <em>name</em> is the first word of its subject's common name ({@code ovs-pki
 * req+sign NAME switch} writes {@code CN=NAME id:UUID}). A name {@code dpid-HEX} may claim exactly
 * that dpid. Any other name may claim only the dpids the switches file lists for it: one line per
 * name, {@code NAME DPID...} with each dpid in hex (colons allowed) or {@code *} for any; blank
 * lines and lines starting with {@code #} are skipped.
 */
public final class SwitchIdentities {
  private static final String DPID_NAME = "dpid-";

  private final Map<String, Set<Long>> byName;
  private final Set<String> anyDpid;

  private SwitchIdentities(Map<String, Set<Long>> byName, Set<String> anyDpid) {
    this.byName = byName;
    this.anyDpid = anyDpid;
  }

  /** Only {@code dpid-HEX} names, no file. */
  public static SwitchIdentities namesOnly() {
    return new SwitchIdentities(Map.of(), Set.of());
  }

  /** Parses a switches file; the error names the line. */
  public static SwitchIdentities parse(String text) {
    Map<String, Set<Long>> byName = new HashMap<>();
    Set<String> any = new HashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] words = line.split("\\s+");
      if (words.length < 2) {
        throw new IllegalArgumentException(
            "switches file line " + (i + 1) + ": expected NAME DPID..., got '" + line + "'");
      }
      for (int w = 1; w < words.length; w++) {
        if (words[w].equals("*")) {
          any.add(words[0]);
        } else {
          byName
              .computeIfAbsent(words[0], k -> new HashSet<>())
              .add(dpid(words[w], "switches file line " + (i + 1)));
        }
      }
    }
    return new SwitchIdentities(Map.copyOf(byName), Set.copyOf(any));
  }

  /** True if a certificate with this subject common name may claim {@code dpid}. */
  public boolean allows(String commonName, long dpid) {
    String name = nameOf(commonName);
    if (name.startsWith(DPID_NAME)) {
      try {
        return dpid(name.substring(DPID_NAME.length()), "name") == dpid;
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
    return anyDpid.contains(name) || byName.getOrDefault(name, Set.of()).contains(dpid);
  }

  /** The first word of a common name ({@code "s1 id:…"} → {@code "s1"}). */
  static String nameOf(String commonName) {
    String cn = commonName == null ? "" : commonName.strip();
    int space = cn.indexOf(' ');
    return space < 0 ? cn : cn.substring(0, space);
  }

  /** The CN attribute of an RFC 2253 distinguished name, or "" (escapes are not decoded). */
  static String commonName(String rfc2253) {
    for (String rdn : rfc2253.split("(?<!\\\\),")) {
      String r = rdn.strip();
      if (r.regionMatches(true, 0, "CN=", 0, 3)) {
        return r.substring(3);
      }
    }
    return "";
  }

  private static long dpid(String text, String where) {
    String hex = text.replace(":", "");
    if (hex.isEmpty() || hex.length() > 16 || !hex.matches("[0-9a-fA-F]+")) {
      throw new IllegalArgumentException(where + ": bad dpid '" + text + "' (up to 16 hex digits)");
    }
    return Long.parseUnsignedLong(hex, 16);
  }
}
