package org.netpubsub.http;

import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer-token check in front of a server's routes. {@code /v1/*} (but the OpenAPI document)
 * and {@code /metrics} need a token; {@code /health/*}, the OpenAPI document and the dashboard's
 * static files do not (probes and documents carry no state of anyone's). A request without a token,
 * or with one no principal holds, is answered 401 with {@code WWW-Authenticate: Bearer} and counted
 * in {@code nps_http_auth_refused_total{reason}} (missing, invalid; routes add forbidden for 403).
 */
final class Authentication {
  private static final Logger LOG = LoggerFactory.getLogger(Authentication.class);
  static final String ATTRIBUTE = "nps.principal";

  private final Authenticator auth;
  private final Counter missing;
  private final Counter invalid;

  Authentication(String server, Authenticator auth, MeterRegistry registry) {
    this.auth = auth;
    this.missing = refused(registry, "missing");
    this.invalid = refused(registry, "invalid");
    refused(registry, "forbidden");
    Gauge.builder("nps.http.auth.enabled", () -> auth == null ? 0 : 1)
        .description("1 if requests are authenticated (--auth), 0 if anyone may do anything")
        .register(registry);
    if (auth == null) {
      LOG.warn(
          "{}: authentication is off (no --auth): anyone who reaches this port may do anything",
          server);
    }
  }

  static void forbidden(MeterRegistry registry) {
    refused(registry, "forbidden").increment();
  }

  private static Counter refused(MeterRegistry registry, String reason) {
    return Counter.builder("nps.http.auth.refused")
        .description("requests refused: no token, a token nobody holds, or not allowed (403)")
        .tag("reason", reason)
        .register(registry);
  }

  /** Sets the request's principal, or answers 401 and skips the route. */
  void check(Context ctx) {
    if (auth == null) {
      ctx.attribute(ATTRIBUTE, Principal.ANONYMOUS);
      return;
    }
    String path = ctx.path();
    boolean guarded =
        (path.startsWith("/v1/") && !path.equals("/v1/openapi.json")) || path.equals("/metrics");
    if (!guarded) {
      return;
    }
    String header = ctx.header("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      missing.increment();
      refuse(ctx, "a bearer token is required (Authorization: Bearer TOKEN)", "Bearer");
      return;
    }
    Optional<Principal> p = auth.principal(header.substring(7).trim());
    if (p.isEmpty()) {
      invalid.increment();
      refuse(ctx, "the bearer token is not valid", "Bearer error=\"invalid_token\"");
      return;
    }
    ctx.attribute(ATTRIBUTE, p.get());
  }

  private static void refuse(Context ctx, String message, String challenge) {
    RestServer.write(
        ctx, new ApiError(401, message, null, Map.of("WWW-Authenticate", challenge)).reply());
    ctx.skipRemainingHandlers();
  }
}
