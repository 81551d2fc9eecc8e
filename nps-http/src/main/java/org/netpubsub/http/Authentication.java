package org.netpubsub.http;

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

  /**
   * The principal of a request to {@code path} with this {@code Authorization} header: null when
   * the path needs none; {@link Principal#ANONYMOUS} for every path when authentication is off.
   *
   * @throws ApiError 401 with its {@code WWW-Authenticate} challenge
   */
  Principal check(String path, String header) {
    if (auth == null) {
      return Principal.ANONYMOUS;
    }
    boolean guarded =
        (path.startsWith("/v1/") && !path.equals("/v1/openapi.json")) || path.equals("/metrics");
    if (!guarded) {
      return null;
    }
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      missing.increment();
      throw refuse("a bearer token is required (Authorization: Bearer TOKEN)", "Bearer");
    }
    Optional<Principal> p = auth.principal(header.substring(7).trim());
    if (p.isEmpty()) {
      invalid.increment();
      throw refuse("the bearer token is not valid", "Bearer error=\"invalid_token\"");
    }
    return p.get();
  }

  private static ApiError refuse(String message, String challenge) {
    return new ApiError(401, message, null, Map.of("WWW-Authenticate", challenge));
  }
}
