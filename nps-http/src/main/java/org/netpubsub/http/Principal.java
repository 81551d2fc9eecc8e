package org.netpubsub.http;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who a request comes from, and what it may do (docs/security.md): the hosts it may act for, the
 * region it may subscribe to and the region it may advertise in (filters in the filter language;
 * empty means nowhere), the edges it may act as, and its admin rights. {@link #ANONYMOUS} is every
 * request of a server without {@code --auth}: it may do everything, as before authentication.
 */
public record Principal(
    String name,
    List<HostPrefix> hosts,
    Optional<String> subscribe,
    Optional<String> advertise,
    Set<String> edges,
    Set<Admin> admin) {

  /** The admin rights: any host, the multicast groups, any edge. */
  public enum Admin {
    HOSTS,
    GROUPS,
    EDGES,
    /** Switch the pub/sub index layout online ({@code PUT /v1/pubsub/layout}). */
    INDEX,
    /** List every principal's requests, changing nothing (a dashboard, a monitor). */
    READ
  }

  /** The region that means "anywhere". */
  public static final String ANYWHERE = "true";

  /** A server without authentication: every request may do everything. */
  public static final Principal ANONYMOUS =
      new Principal(
          "anonymous",
          List.of(HostPrefix.parse("::/0"), HostPrefix.parse("0.0.0.0/0")),
          Optional.of(ANYWHERE),
          Optional.of(ANYWHERE),
          Set.of(),
          Set.of(Admin.values()));

  public Principal {
    hosts = List.copyOf(hosts);
    edges = Set.copyOf(edges);
    admin = admin.isEmpty() ? Set.of() : Set.copyOf(admin);
  }

  public boolean isAdmin(Admin right) {
    return admin.contains(right);
  }

  /** Whether it may act for the host at {@code address} (an admin of hosts acts for any). */
  public boolean mayActFor(String address) {
    if (isAdmin(Admin.HOSTS)) {
      return true;
    }
    byte[] a = HostPrefix.literal(address);
    return a != null && hosts.stream().anyMatch(p -> p.contains(a));
  }

  /** Whether it may act as the edge {@code name} (an admin of edges acts as any). */
  public boolean mayActAsEdge(String name) {
    return isAdmin(Admin.EDGES) || edges.contains(name);
  }

  /** 403 unless the principal holds {@code right}. */
  public void require(Admin right, String what) {
    if (!isAdmin(right)) {
      throw forbidden(what + " needs the admin right '" + right.name().toLowerCase() + "'");
    }
  }

  /** A 403 naming the principal. */
  public ApiError forbidden(String why) {
    return new ApiError(403, "principal '" + name + "' may not: " + why);
  }
}
