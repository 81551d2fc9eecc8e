package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.Cabling;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.http.Json;

/**
 * {@code GET /v1/topology} is served from bytes cached per state (CachedJson): every change it
 * shows (a switch connecting, a link found, a host registered, a link lost, a switch disconnecting)
 * must reach the answer, which must equal the uncached rendering of the state.
 */
class TopologyAnswerTest {
  private static final Duration T = Duration.ofSeconds(10);
  private final HttpClient http = HttpClient.newHttpClient();
  private final Map<Long, SimulatedOpenFlowSwitch> switches = new HashMap<>();
  private final Cabling cabling = new Cabling(switches).cable(1, 1, 2, 1);
  private NetworkController controller;
  private ControllerApi api;

  @AfterEach
  void stop() {
    switches.values().forEach(SimulatedOpenFlowSwitch::close);
    api.close();
    controller.close();
  }

  private String topology() {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(uri("/v1/topology")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      return r.body();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + api.address().getPort() + path);
  }

  /** Polls until the answer shows {@code what}; a change the cache missed never shows. */
  private void shows(String what, Predicate<JsonNode> test) {
    Wait.until(
        what,
        T,
        cabling::relay,
        () -> {
          try {
            return test.test(Json.MAPPER.readTree(topology()));
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        });
    // the cached answer is the uncached rendering of the state, byte for byte, read while the
    // state stood still; LLDP keeps being relayed meanwhile, as a link not relayed for three probe
    // intervals expires (a stale cache never matches, and the wait times out)
    Wait.until(
        what + ", cached as rendered",
        T,
        cabling::relay,
        () -> {
          String before = uncached();
          String cached = topology();
          return cached.equals(before) && uncached().equals(before) && topology().equals(cached);
        });
  }

  private String uncached() {
    return Json.MAPPER
        .valueToTree(
            new TopologyJson(controller.topology(), controller.connectedSwitches()).render())
        .toString();
  }

  private static boolean connected(JsonNode t, String dpid) {
    for (JsonNode s : t.get("switches")) {
      if (s.get("dpid").asText().equals(dpid)) {
        return s.get("connected").asBoolean();
      }
    }
    return false;
  }

  @Test
  void everyChangeReachesTheCachedAnswer() throws Exception {
    controller =
        NetworkController.start(
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withProbeInterval(200));
    api = ControllerApi.start(controller, new InetSocketAddress("127.0.0.1", 0));
    shows("no switches", t -> t.get("switches").isEmpty());

    int of = controller.openflowAddress().getPort();
    for (long dpid = 1; dpid <= 2; dpid++) {
      SimulatedOpenFlowSwitch sw = SimulatedOpenFlowSwitch.builder().dpid(dpid).ports(1, 9).build();
      switches.put(dpid, sw);
      sw.connect(new InetSocketAddress("127.0.0.1", of)).get();
      String d = "000000000000000" + dpid;
      shows("switch " + dpid + " connected", t -> connected(t, d));
    }
    shows("the link 1-2", t -> t.get("links").size() == 1);

    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(uri("/v1/hosts"))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"address\":\"fd6e:7073:1::7\",\"mac\":\"02:00:00:00:00:07\","
                            + "\"dpid\":\"0000000000000002\",\"port\":9}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    shows("the host", t -> t.at("/hosts/0/address").asText().equals("fd6e:7073:1::7"));

    switches.get(1L).setPortUp(1, false);
    shows("the link lost", t -> t.get("links").isEmpty());

    switches.remove(2L).close();
    shows("switch 2 disconnected", t -> !connected(t, "0000000000000002"));
  }
}
