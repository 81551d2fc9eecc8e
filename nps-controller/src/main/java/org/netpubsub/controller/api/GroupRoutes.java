package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.app.ClusterRegistry;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Fields;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Reply;
import org.netpubsub.http.Request;
import org.netpubsub.http.RestServer;
import org.netpubsub.http.Route;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.multicast.TreeStrategy;

/**
 * The multicast part of the REST API (docs/multicast.md): {@code GET /v1/groups}, and {@code GET,
 * PUT, DELETE /v1/groups/{name}} (the name is the rest of the path, so MQTT topics with slashes
 * fit). A PUT answers once every switch it changed has acknowledged, with where each source sends.
 */
final class GroupRoutes {
  private static final String PREFIX = "/v1/groups";
  private static final long ANSWER_TIMEOUT_SECONDS = 30;

  private final MulticastGroups groups;
  private final Optional<ClusterRegistry> registry; // in a cluster: changes go to every process

  GroupRoutes(MulticastGroups groups, Optional<ClusterRegistry> registry) {
    this.groups = groups;
    this.registry = registry;
  }

  /** The routes, answered 404 "multicast groups are off" without groups. */
  static void register(RestServer.Builder b, Optional<GroupRoutes> routes) {
    b.route("GET", PREFIX, on(routes, (g, r) -> g.list()));
    b.route("GET", PREFIX + "/<name>", on(routes, (g, r) -> g.get(r.pathParam("name"))));
    b.route(
        "PUT",
        PREFIX + "/<name>",
        on(routes, (g, r) -> g.put(spec(admin(r).pathParam("name"), r.json()))));
    b.route(
        "DELETE", PREFIX + "/<name>", on(routes, (g, r) -> g.delete(admin(r).pathParam("name"))));
  }

  /** The request, if its principal is an admin of groups (403 otherwise). */
  private static Request admin(Request r) {
    r.principal().require(Principal.Admin.GROUPS, "change multicast groups");
    return r;
  }

  private interface Handler {
    Reply handle(GroupRoutes routes, Request r) throws IOException;
  }

  private static Route on(Optional<GroupRoutes> routes, Handler h) {
    return r -> {
      if (routes.isEmpty()) {
        throw new ApiError(404, "multicast groups are off");
      }
      return h.handle(routes.get(), r);
    };
  }

  /**
   * In a cluster the change goes through ZooKeeper and is answered with the placement the multicast
   * writer published for it.
   */
  private Reply put(GroupSpec spec) {
    if (registry.isEmpty()) {
      return Reply.ok(GroupJson.placement(await(groups.put(spec))));
    }
    try {
      return Reply.ok(await(registry.get().putGroup(spec)));
    } catch (Exception e) {
      return unavailable(e);
    }
  }

  private Reply delete(String name) {
    boolean known;
    try {
      known =
          registry.isEmpty() ? await(groups.remove(name)) : await(registry.get().removeGroup(name));
    } catch (Exception e) {
      return unavailable(e);
    }
    return known
        ? Reply.ok(GroupJson.JSON.createObjectNode().put("name", name))
        : new ApiError(404, "no group " + name).reply();
  }

  private Reply get(String name) {
    if (registry.isEmpty()) {
      return await(groups.placement(name))
          .map(p -> Reply.ok(GroupJson.placement(p)))
          .orElseGet(() -> new ApiError(404, "no group " + name).reply());
    }
    try {
      return registry
          .get()
          .placement(name)
          .map(p -> Reply.ok(p))
          .orElseGet(() -> new ApiError(404, "no group " + name).reply());
    } catch (Exception e) {
      return unavailable(e);
    }
  }

  /** 503: the cluster's ZooKeeper did not take the change; sending it again is safe. */
  private static Reply unavailable(Exception e) {
    if (e instanceof RuntimeException r) {
      throw r; // bad input or a timeout: answered as without a cluster
    }
    return new ApiError(
            503,
            "the cluster's ZooKeeper is unavailable: " + e.getMessage(),
            null,
            java.util.Map.of("Retry-After", "1"))
        .reply();
  }

  private Reply list() {
    if (registry.isEmpty()) {
      return Reply.ok(GroupJson.snapshot(await(groups.snapshot())));
    }
    try {
      return Reply.ok(registry.get().placements());
    } catch (Exception e) {
      return unavailable(e);
    }
  }

  private static GroupSpec spec(String name, JsonNode n) {
    String strategy = Fields.text(n, "strategy", false);
    return GroupSpec.of(
        name,
        addresses(n, "members"),
        addresses(n, "sources"),
        switch (strategy == null ? "direct" : strategy) {
          case "direct" -> TreeStrategy.DIRECT;
          case "rp" -> TreeStrategy.RENDEZVOUS_POINT;
          default -> throw ApiError.field("strategy", "strategy must be direct or rp: " + strategy);
        });
  }

  private static Set<Ipv6Address> addresses(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isArray()) {
      throw ApiError.field(field, field + " must be an array of IPv6 addresses");
    }
    Set<Ipv6Address> out = new TreeSet<>();
    for (JsonNode a : v) {
      if (!a.isTextual()) {
        throw ApiError.field(field, field + " must be an array of IPv6 addresses");
      }
      out.add(Ipv6Address.parse(a.asText()));
    }
    return out;
  }

  private static <T> T await(CompletableFuture<T> f) {
    try {
      return f.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IllegalArgumentException bad) {
        throw bad;
      }
      if (e.getCause() instanceof MulticastGroups.TooManyGroups full) {
        throw new ApiError(429, full.getMessage());
      }
      if (e.getCause() instanceof MulticastGroups.Held
          || e.getCause() instanceof MulticastGroups.NotKept) {
        // a restart's hold (it ends within --restore-wait), or the store: sending it again is safe
        throw new ApiError(
            503, e.getCause().getMessage(), null, java.util.Map.of("Retry-After", "1"));
      }
      throw new ApiError(504, "the switches did not take the change: " + e.getCause());
    } catch (TimeoutException e) {
      throw new ApiError(504, "the switches did not answer in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    }
  }
}
