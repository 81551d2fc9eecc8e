package org.netpubsub.controller.api;

import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Tokens;

/**
 * The API tests' controller with principals: one simulated switch (4 ports, connected), PubSub on
 * the quotes schema, and the REST API authenticating against a principals file written from {@link
 * #principal} lines. Principal {@code NAME}'s token is {@code t-NAME}.
 */
final class AuthenticatedApi implements AutoCloseable {
  final OneSwitchNetwork net;
  final NetworkController controller;
  final PubSubService service;
  final Authenticator auth;
  final ControllerApi api;
  final Rest rest;

  private AuthenticatedApi(
      Path dir, Function<NetworkController, PubSubService> attach, String principals)
      throws Exception {
    net = OneSwitchNetwork.startController();
    controller = net.controller();
    service = attach.apply(controller);
    Path f = dir.resolve("principals.yaml");
    Files.writeString(f, "principals:\n" + principals);
    auth = Authenticator.load(f, service::checkRegion, Duration.ZERO);
    api =
        ControllerApi.start(
            controller,
            Optional.of(service),
            Optional.empty(),
            Optional.empty(),
            new InetSocketAddress("::1", 0),
            Optional.of(auth));
    rest = new Rest(api.address().getPort());
    net.connectSwitch(4);
  }

  /** Starts it with these {@link #principal} lines, in a principals file under {@code dir}. */
  static AuthenticatedApi start(Path dir, PubSubLimits limits, String... principals)
      throws Exception {
    return start(
        dir,
        c -> PubSubService.attach(c, new SpatialIndex(PubSubApiTest.QUOTES, 12), limits),
        principals);
  }

  /** The same with the pub/sub service {@code attach} starts (another routing). */
  static AuthenticatedApi start(
      Path dir, Function<NetworkController, PubSubService> attach, String... principals)
      throws Exception {
    return new AuthenticatedApi(dir, attach, String.join("", principals));
  }

  /** One principal of the file: its name, token {@code t-NAME}, and the rest of its YAML. */
  static String principal(String name, String rest) {
    return "  - name: "
        + name
        + "\n    token_sha256: "
        + Tokens.sha256("t-" + name)
        + "\n    "
        + rest
        + "\n";
  }

  /** A request with principal {@code who}'s token, or none when {@code who} is null. */
  HttpResponse<String> send(String who, String method, String path, String body) throws Exception {
    return rest.send(
        method, path, body, who == null ? Map.of() : Map.of("Authorization", "Bearer t-" + who));
  }

  /**
   * {@code POST /v1/subscriptions} of {@code filter} for {@code host}, port 40000, as {@code who}.
   */
  HttpResponse<String> subscribe(String who, String host, String filter) throws Exception {
    String body =
        PubSubApiTest.JSON
            .createObjectNode()
            .put("host", host)
            .put("filter", filter)
            .put("port", 40000)
            .toString();
    return send(who, "POST", "/v1/subscriptions", body);
  }

  @Override
  public void close() {
    api.close();
    auth.close();
    net.close();
  }
}
