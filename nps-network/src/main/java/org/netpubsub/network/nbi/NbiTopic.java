package org.netpubsub.network.nbi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * A topic a northbound app subscribes to (EMD §4.1): the packet-ins every one of whose constraints
 * holds. A constraint names an OpenFlow match field ({@code udp_dst=7073}) or a masked window of
 * raw bytes ({@code bytes@12/2=86dd}, §4.2); a topic may mix both. No constraints ({@link #ANY},
 * written {@code *}) is every packet-in. The syntax is in {@link #parse}.
 *
 * <p>Constraints are kept sorted and without wildcards, so equal topics compare equal; a named
 * field appears at most once, and a topic no packet can match because OpenFlow prerequisites
 * contradict ({@code eth_type=0x0800,ipv6_dst=::1}) is rejected as a likely mistake.
 */
public record NbiTopic(List<FieldConstraint> constraints) {
  /** Every packet-in. */
  public static final NbiTopic ANY = new NbiTopic(List.of());

  public NbiTopic {
    TreeSet<FieldConstraint> sorted = new TreeSet<>();
    for (FieldConstraint c : constraints) {
      if (!c.isWildcard()) {
        sorted.add(c);
      }
    }
    constraints = List.copyOf(sorted);
    problem(constraints)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException(why);
            });
  }

  public static NbiTopic of(FieldConstraint... constraints) {
    return new NbiTopic(List.of(constraints));
  }

  /**
   * Parses a topic. The grammar:
   *
   * <pre>
   * topic  = "*" | clause *( "," clause )           ; whitespace around clauses is ignored
   * clause = field "=" value                         ; eth_type=0x86dd, ipv6_dst=ff0e::/16
   *        | "bytes@" offset "/" length [ "&amp;" mask ] "=" value
   * </pre>
   *
   * Fields are {@code dpid, in_port, eth_type, ip_proto, ipv4_src, ipv4_dst, ipv6_src, ipv6_dst,
   * tcp_src, tcp_dst, udp_src, udp_dst, icmpv6_type}. Numbers are decimal or {@code 0x} hex; {@code
   * in_port} also takes ovs-ofctl's port names ({@code LOCAL}); addresses take {@code /len} or
   * {@code /mask}. In a byte clause offset and length (1..16) are decimal and mask and value are
   * exactly {@code 2 * length} hex digits (mask default: all ones); value bits outside the mask are
   * ignored, as ovs-ofctl ignores them. {@code toString} writes this syntax back.
   *
   * @throws IllegalArgumentException "topic 'TEXT', column N: REASON", N counting from 1 (one past
   *     the last character if the text ended too early)
   */
  public static NbiTopic parse(String text) {
    return TopicParser.parse(text);
  }

  /** True if every constraint holds for the packet. */
  public boolean matches(PacketInView packet) {
    for (FieldConstraint c : constraints) {
      if (!c.matches(packet)) {
        return false;
      }
    }
    return true;
  }

  public boolean isAny() {
    return constraints.isEmpty();
  }

  /**
   * Why no packet can match these constraints (a named field twice, contradicting EtherTypes or IP
   * protocols), or empty. The parser asks after each clause, so it can blame the clause that
   * introduced the problem.
   */
  static Optional<String> problem(Collection<FieldConstraint> constraints) {
    Map<HeaderField, FieldConstraint> named = new EnumMap<>(HeaderField.class);
    for (FieldConstraint c : constraints) {
      if (c.field() instanceof HeaderField f && named.put(f, c) != null) {
        return Optional.of(f.keyword() + " given twice");
      }
    }
    List<Need> ethNeeds = new ArrayList<>();
    List<Need> protoNeeds = new ArrayList<>();
    FieldConstraint ipOnly = null;
    for (FieldConstraint c : named.values()) {
      HeaderField f = (HeaderField) c.field();
      if (f == HeaderField.ETH_TYPE) {
        ethNeeds.add(new Need(c, c.value().low()));
      } else if (f.requiredEthType() >= 0) {
        ethNeeds.add(new Need(c, f.requiredEthType()));
      }
      if (f == HeaderField.IP_PROTO) {
        protoNeeds.add(new Need(c, c.value().low()));
      } else if (f.requiredIpProto() >= 0) {
        protoNeeds.add(new Need(c, f.requiredIpProto()));
      }
      if (f.needsIp() && ipOnly == null) {
        ipOnly = c;
      }
    }
    Optional<String> eth = disagreement(ethNeeds);
    if (eth.isPresent()) {
      return eth;
    }
    FieldConstraint ethType = named.get(HeaderField.ETH_TYPE);
    if (ipOnly != null && ethType != null) {
      long t = ethType.value().low();
      if (t != PacketHeaders.ETH_TYPE_IPV4 && t != PacketHeaders.ETH_TYPE_IPV6) {
        return Optional.of(contradiction(ipOnly, ethType));
      }
    }
    return disagreement(protoNeeds);
  }

  /** A constraint and the EtherType or IP protocol it needs the packet to have. */
  private record Need(FieldConstraint by, long value) {}

  private static Optional<String> disagreement(List<Need> needs) {
    for (Need n : needs) {
      if (n.value() != needs.get(0).value()) {
        return Optional.of(contradiction(needs.get(0).by(), n.by()));
      }
    }
    return Optional.empty();
  }

  private static String contradiction(FieldConstraint a, FieldConstraint b) {
    return "no packet has both " + a + " and " + b;
  }

  /** The topic in {@link #parse} syntax: {@code *}, or the constraints joined by commas. */
  @Override
  public String toString() {
    return isAny()
        ? "*"
        : constraints.stream().map(FieldConstraint::toString).collect(Collectors.joining(","));
  }
}
