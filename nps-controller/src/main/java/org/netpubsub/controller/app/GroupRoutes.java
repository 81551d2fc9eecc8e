package org.netpubsub.controller.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.network.multicast.GroupForwarding;
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

  static boolean handles(String path) {
    return path.equals(PREFIX) || path.startsWith(PREFIX + "/");
  }

  ApiReply route(String method, String path, HttpExchange ex) throws IOException {
    if (path.equals(PREFIX) || path.equals(PREFIX + "/")) {
      return method.equals("GET") ? list() : ApiReply.notAllowed();
    }
    String name = path.substring(PREFIX.length() + 1);
    return switch (method) {
      case "GET" -> get(name);
      case "PUT" -> put(spec(name, ex));
      case "DELETE" -> delete(name);
      default -> ApiReply.notAllowed();
    };
  }

  /**
   * In a cluster the change goes through ZooKeeper and is answered with the placement the multicast
   * writer published for it.
   */
  private ApiReply put(GroupSpec spec) {
    if (registry.isEmpty()) {
      return new ApiReply(200, placement(await(groups.put(spec))));
    }
    try {
      return new ApiReply(200, await(registry.get().putGroup(spec)));
    } catch (Exception e) {
      return unavailable(e);
    }
  }

  private ApiReply delete(String name) {
    boolean known;
    try {
      known =
          registry.isEmpty() ? await(groups.remove(name)) : await(registry.get().removeGroup(name));
    } catch (Exception e) {
      return unavailable(e);
    }
    return known
        ? new ApiReply(200, ApiReply.JSON.createObjectNode().put("name", name))
        : ApiReply.error(404, "no group " + name);
  }

  private ApiReply get(String name) {
    if (registry.isEmpty()) {
      return await(groups.placement(name))
          .map(p -> new ApiReply(200, placement(p)))
          .orElseGet(() -> ApiReply.error(404, "no group " + name));
    }
    try {
      return registry
          .get()
          .placement(name)
          .map(p -> new ApiReply(200, p))
          .orElseGet(() -> ApiReply.error(404, "no group " + name));
    } catch (Exception e) {
      return unavailable(e);
    }
  }

  /** 503: the cluster's ZooKeeper did not take the change; sending it again is safe. */
  private static ApiReply unavailable(Exception e) {
    if (e instanceof RuntimeException r) {
      throw r; // bad input or a timeout: answered as without a cluster
    }
    return new ApiReply(
        503,
        ApiReply.error(503, "the cluster's ZooKeeper is unavailable: " + e.getMessage()).body(),
        java.util.Map.of("Retry-After", "1"));
  }

  private ApiReply list() {
    if (registry.isEmpty()) {
      return new ApiReply(200, snapshot(await(groups.snapshot())));
    }
    try {
      return new ApiReply(200, registry.get().placements());
    } catch (Exception e) {
      return unavailable(e);
    }
  }

  /** {@code GET /v1/groups}: every group, the segments installed, the links avoided. */
  static ObjectNode snapshot(MulticastGroups.Snapshot s) {
    ObjectNode root = ApiReply.JSON.createObjectNode().put("segments", s.segments());
    ArrayNode all = root.putArray("groups");
    s.groups().forEach(p -> all.add(placement(p)));
    ArrayNode avoided = root.putArray("avoided_links");
    s.avoidedLinks()
        .forEach(
            l -> {
              ObjectNode o = avoided.addObject();
              o.putObject("a")
                  .put("dpid", ControllerApi.dpid(l.a().dpid()))
                  .put("port", l.a().port());
              o.putObject("b")
                  .put("dpid", ControllerApi.dpid(l.b().dpid()))
                  .put("port", l.b().port());
            });
    return root;
  }

  private static GroupSpec spec(String name, HttpExchange ex) throws IOException {
    JsonNode n = ControllerApi.jsonBody(ex);
    String strategy = ControllerApi.text(n, "strategy", false);
    return GroupSpec.of(
        name,
        addresses(n, "members"),
        addresses(n, "sources"),
        switch (strategy == null ? "direct" : strategy) {
          case "direct" -> TreeStrategy.DIRECT;
          case "rp" -> TreeStrategy.RENDEZVOUS_POINT;
          default ->
              throw new IllegalArgumentException("strategy must be direct or rp: " + strategy);
        });
  }

  private static Set<Ipv6Address> addresses(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isArray()) {
      throw new IllegalArgumentException(field + " must be an array of IPv6 addresses");
    }
    Set<Ipv6Address> out = new TreeSet<>();
    for (JsonNode a : v) {
      if (!a.isTextual()) {
        throw new IllegalArgumentException(field + " must be an array of IPv6 addresses");
      }
      out.add(Ipv6Address.parse(a.asText()));
    }
    return out;
  }

  /** One group as embedded now: where each source sends, the hosts not known yet. */
  static ObjectNode placement(GroupForwarding.Placement p) {
    ObjectNode o = ApiReply.JSON.createObjectNode().put("name", p.spec().name());
    o.put("strategy", p.spec().strategy() == TreeStrategy.DIRECT ? "direct" : "rp");
    ArrayNode members = o.putArray("members");
    p.spec().members().forEach(a -> members.add(a.toString()));
    ObjectNode sources = o.putObject("sources");
    for (Ipv6Address src : p.spec().sources()) {
      ObjectNode s = sources.putObject(src.toString());
      GroupForwarding.SourceEntry e = p.sources().get(src);
      if (e == null) {
        s.putNull("send_to"); // unknown source, or no member besides it
        s.put("segments", 0);
      } else {
        s.put("send_to", e.sendTo().toString());
        s.put("segments", e.segments());
      }
    }
    ArrayNode unknown = o.putArray("unknown_hosts");
    p.unknownHosts().forEach(a -> unknown.add(a.toString()));
    return o;
  }

  private static <T> T await(CompletableFuture<T> f) {
    try {
      return f.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IllegalArgumentException bad) {
        throw bad;
      }
      throw new ControllerApi.BadBody(
          ApiReply.error(504, "the switches did not take the change: " + e.getCause()));
    } catch (TimeoutException e) {
      throw new ControllerApi.BadBody(ApiReply.error(504, "the switches did not answer in time"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    }
  }
}
