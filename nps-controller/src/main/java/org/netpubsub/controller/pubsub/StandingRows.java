package org.netpubsub.controller.pubsub;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * {@link StandingStore}'s rows to values and back. Reading checks every field, so a file edited by
 * hand or written by another version fails the start with the table, row and field, never later on
 * the controller loop.
 */
final class StandingRows {
  /** Request ids and owners are short tokens (RequestIds, principals): longer is no row of ours. */
  static final int MAX_TOKEN = 256;

  private StandingRows() {}

  static StandingStore.Contents read(Connection db, String name) throws SQLException {
    List<StandingStore.Row> requests = new ArrayList<>();
    Topology t = Topology.EMPTY;
    try (Statement s = db.createStatement()) {
      try (ResultSet rs =
          s.executeQuery(
              "SELECT id, kind, host, port, filter, region, owner FROM nps_requests ORDER BY id")) {
        while (rs.next()) {
          String id = rs.getString(1);
          String where = "--store " + name + ": nps_requests row '" + id + "' field ";
          if (id == null || id.isEmpty() || id.length() > MAX_TOKEN) {
            throw new IllegalArgumentException(where + "id: empty or over " + MAX_TOKEN);
          }
          PubSubRequest.Kind kind;
          try {
            kind = PubSubRequest.Kind.valueOf(rs.getString(2));
          } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(where + "kind: not SUBSCRIPTION or ADVERTISEMENT");
          }
          address(rs.getString(3), where + "host");
          int port = rs.getInt(4);
          if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException(where + "port: not 1-65535: " + port);
          }
          String owner = rs.getString(7);
          if (owner == null || owner.length() > MAX_TOKEN) {
            throw new IllegalArgumentException(where + "owner: missing or over " + MAX_TOKEN);
          }
          if (rs.getString(5) == null) {
            throw new IllegalArgumentException(where + "filter: missing");
          }
          requests.add(
              new StandingStore.Row(
                  id,
                  kind,
                  rs.getString(3),
                  port,
                  rs.getString(5),
                  Optional.ofNullable(rs.getString(6)),
                  owner));
          capped(requests.size(), name, "nps_requests");
        }
      }
      int n = 0;
      try (ResultSet rs = s.executeQuery("SELECT dpid FROM nps_switches")) {
        while (rs.next()) {
          t = t.addSwitch(rs.getLong(1), List.of());
          capped(++n, name, "nps_switches");
        }
      }
      n = 0;
      try (ResultSet rs =
          s.executeQuery("SELECT a_dpid, a_port, b_dpid, b_port FROM nps_links ORDER BY a_dpid")) {
        while (rs.next()) {
          String where = "--store " + name + ": nps_links row " + (n + 1) + " field ";
          SwitchPort a = port(rs.getLong(1), rs.getLong(2), where + "a_port");
          SwitchPort b = port(rs.getLong(3), rs.getLong(4), where + "b_port");
          t = t.addLink(new Link(a, b));
          capped(++n, name, "nps_links");
        }
      }
      n = 0;
      try (ResultSet rs = s.executeQuery("SELECT address, mac, dpid, port FROM nps_hosts")) {
        while (rs.next()) {
          String where = "--store " + name + ": nps_hosts row '" + rs.getString(1) + "' field ";
          Ipv6Address a = address(rs.getString(1), where + "address");
          SwitchPort at = port(rs.getLong(3), rs.getLong(4), where + "port");
          try {
            t = t.addHost(new Host(a, new MacAddress(rs.getLong(2)), at));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + "port: " + e.getMessage(), e);
          }
          capped(++n, name, "nps_hosts");
        }
      }
    }
    List<GroupSpec> groups = readGroups(db, name);
    db.commit(); // ends the read transaction
    return new StandingStore.Contents(List.copyOf(requests), groups, t);
  }

  private static List<GroupSpec> readGroups(Connection db, String name) throws SQLException {
    List<GroupSpec> groups = new ArrayList<>();
    try (Statement s = db.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT name, strategy, members, sources FROM nps_groups ORDER BY name")) {
      while (rs.next()) {
        String group = rs.getString(1);
        String where = "--store " + name + ": nps_groups row '" + group + "' field ";
        TreeStrategy strategy =
            switch (String.valueOf(rs.getString(2))) {
              case "direct" -> TreeStrategy.DIRECT;
              case "rp" -> TreeStrategy.RENDEZVOUS_POINT;
              default -> throw new IllegalArgumentException(where + "strategy: not direct or rp");
            };
        try {
          groups.add(
              GroupSpec.of(
                  group,
                  addresses(rs.getString(3), where + "members"),
                  addresses(rs.getString(4), where + "sources"),
                  strategy));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(where + "name: " + e.getMessage(), e);
        }
        capped(groups.size(), name, "nps_groups");
      }
    }
    return List.copyOf(groups);
  }

  /** Writes a multicast group, replacing the row of its name (in the caller's transaction). */
  static void writeGroup(Connection db, GroupSpec g) throws SQLException {
    try (PreparedStatement p =
        db.prepareStatement(
            "INSERT INTO nps_groups (name, strategy, members, sources) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (name) DO UPDATE SET strategy = excluded.strategy,"
                + " members = excluded.members, sources = excluded.sources")) {
      p.setString(1, g.name());
      p.setString(2, g.strategy() == TreeStrategy.DIRECT ? "direct" : "rp");
      p.setString(3, joined(g.members()));
      p.setString(4, joined(g.sources()));
      p.executeUpdate();
    }
  }

  private static String joined(Set<Ipv6Address> addresses) {
    return String.join(" ", addresses.stream().map(Ipv6Address::toString).toList());
  }

  private static Set<Ipv6Address> addresses(String text, String field) {
    if (text == null) {
      throw new IllegalArgumentException(field + ": missing");
    }
    Set<Ipv6Address> out = new TreeSet<>();
    for (String a : text.split(" ")) {
      if (!a.isEmpty()) {
        out.add(address(a, field));
      }
    }
    if (out.size() > GroupSpec.MAX_HOSTS) {
      throw new IllegalArgumentException(field + ": over " + GroupSpec.MAX_HOSTS + " addresses");
    }
    return out;
  }

  /** Replaces the stored topology with {@code t} (in the caller's transaction). */
  static void writeTopology(Connection db, Topology t, int maxRows) throws SQLException {
    if (t.switches().size() > maxRows || t.links().size() > maxRows || t.hosts().size() > maxRows) {
      throw new SQLException("topology over " + maxRows + " switches, links or hosts");
    }
    try (Statement s = db.createStatement()) {
      s.executeUpdate("DELETE FROM nps_switches");
      s.executeUpdate("DELETE FROM nps_links");
      s.executeUpdate("DELETE FROM nps_hosts");
    }
    try (PreparedStatement p = db.prepareStatement("INSERT INTO nps_switches (dpid) VALUES (?)")) {
      for (long dpid : t.switches()) {
        p.setLong(1, dpid);
        p.addBatch();
      }
      p.executeBatch();
    }
    try (PreparedStatement p =
        db.prepareStatement(
            "INSERT INTO nps_links (a_dpid, a_port, b_dpid, b_port) VALUES (?, ?, ?, ?)")) {
      for (Link l : t.links()) {
        p.setLong(1, l.a().dpid());
        p.setLong(2, l.a().port());
        p.setLong(3, l.b().dpid());
        p.setLong(4, l.b().port());
        p.addBatch();
      }
      p.executeBatch();
    }
    try (PreparedStatement p =
        db.prepareStatement(
            "INSERT INTO nps_hosts (address, mac, dpid, port) VALUES (?, ?, ?, ?)")) {
      for (Host h : t.hosts().values()) {
        p.setString(1, h.address().toString());
        p.setLong(2, h.mac().value());
        p.setLong(3, h.attachment().dpid());
        p.setLong(4, h.attachment().port());
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  private static Ipv6Address address(String text, String field) {
    try {
      return Ipv6Address.parse(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(field + ": not an IPv6 address: '" + text + "'", e);
    }
  }

  private static SwitchPort port(long dpid, long port, String field) {
    try {
      return new SwitchPort(dpid, port);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
  }

  private static void capped(int n, String name, String table) {
    if (n > StandingStore.MAX_ROWS) {
      throw new IllegalArgumentException(
          "--store " + name + ": " + table + " holds over " + StandingStore.MAX_ROWS + " rows");
    }
  }
}
