package org.netpubsub.edge.coordinator;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.netpubsub.http.Authenticator;

/**
 * The running edge coordinator: the REST API of docs/edge.md over a {@link CoordinatorStore}, in
 * spray mode or (with a network controller) network mode. Started by its builder; {@link #close}
 * stops the server and closes the database.
 */
public interface EdgeCoordinator extends Closeable {
  static Builder builder() {
    return new Builder();
  }

  /** Where the REST API listens. */
  InetSocketAddress address();

  /** {@code spray} or {@code network}. */
  String mode();

  /** Every edge and the filters present at it (for status output and tests). */
  Map<Edge, Set<String>> edges();

  /** The controller group of {@code topic} in network mode, if it has one. */
  Optional<String> groupName(String topic);

  @Override
  void close();

  /** Configures and starts a coordinator. */
  final class Builder {
    private InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 0);
    private String database;
    private URI controller;
    private GroupController groups;
    private Duration changeWait = Duration.ofSeconds(25);
    private Duration ackTimeout = Duration.ofSeconds(2);
    private Duration controllerTimeout = Duration.ofSeconds(5);
    private Authenticator auth;
    private String controllerToken;
    private javax.net.ssl.SSLContext controllerTls;
    private org.netpubsub.http.ServerTls tls;
    private java.nio.file.Path datagramKeys;
    private java.nio.file.Path revokedEdges;
    private CoordinatorCaps caps = CoordinatorCaps.DEFAULT;
    private CoordinatorStore store; // tests: a store of their own instead of the database URL
    private Duration revocationSweep = Revocations.SWEEP;
    private Duration rotateOnRevoke; // null: a revocation rotates no keys
    private java.util.function.LongSupplier wallMillis = System::currentTimeMillis;

    private Builder() {}

    public Builder listen(InetSocketAddress a) {
      this.listen = Objects.requireNonNull(a);
      return this;
    }

    /** {@code sqlite:PATH} or {@code postgresql://…/DATABASE} (required). */
    public Builder database(String url) {
      this.database = Objects.requireNonNull(url);
      return this;
    }

    /** Network mode: the network controller's base URL ({@code http://HOST:PORT}). */
    public Builder controller(URI base) {
      this.controller = base;
      return this;
    }

    /** How long a change poll waits when nothing changes (default 25 s). */
    public Builder changeWait(Duration d) {
      this.changeWait = requirePositive(d, "changeWait");
      return this;
    }

    /** How long a change waits for the agents' acknowledgements (default 2 s). */
    public Builder ackTimeout(Duration d) {
      this.ackTimeout = requirePositive(d, "ackTimeout");
      return this;
    }

    /** Authenticate requests against these principals (docs/security.md); null: no one. */
    public Builder auth(Authenticator principals) {
      this.auth = principals;
      return this;
    }

    /** The bearer token the coordinator presents to the network controller, or null. */
    public Builder controllerToken(String token) {
      this.controllerToken = token;
      return this;
    }

    /** For an https controller URL: the TLS context trusting its CA (null: the JDK's). */
    public Builder controllerTls(javax.net.ssl.SSLContext context) {
      this.controllerTls = context;
      return this;
    }

    /** Serve HTTPS with these settings (docs/security.md); null: plain HTTP. */
    public Builder tls(org.netpubsub.http.ServerTls settings) {
      this.tls = settings;
      return this;
    }

    /**
     * Hand the keys of this key file to agents that may act as the edge asking ({@code GET
     * /v1/edges/{name}/keys}, docs/security.md); needs {@link #auth}. Null: none.
     */
    public Builder datagramKeys(java.nio.file.Path keyFile) {
      this.datagramKeys = keyFile;
      return this;
    }

    /**
     * Edges revoked at this coordinator, one name a line, read again at each keys request,
     * registration and report, and every few seconds ({@link Revocations}): they get no keys (403)
     * and are listed in every agent's own-keys answer, so their datagrams are refused from the
     * agents' next refresh; a registered one is removed from routing, and their registrations and
     * reports are refused (403) (docs/security-datagrams.md). Needs {@link #datagramKeys}.
     */
    public Builder revokedEdges(java.nio.file.Path file) {
      this.revokedEdges = file;
      return this;
    }

    /**
     * Rotate the deployment keys of {@link #datagramKeys} when an edge is revoked ({@link
     * RevocationRotation}): a fresh key signs from each agent's next refresh, the old ones are
     * accepted for {@code grace}, then dropped from the file. Only for deployments whose every
     * deployment-key holder polls this coordinator. Needs {@link #revokedEdges}. Null: none.
     */
    public Builder rotateOnRevoke(Duration grace) {
      this.rotateOnRevoke = grace == null ? null : requirePositive(grace, "rotateOnRevoke");
      return this;
    }

    /** For tests: the wall clock (milliseconds) the rotation's grace is measured on. */
    Builder wallClock(java.util.function.LongSupplier millis) {
      this.wallMillis = Objects.requireNonNull(millis);
      return this;
    }

    public Builder controllerTimeout(Duration d) {
      this.controllerTimeout = requirePositive(d, "controllerTimeout");
      return this;
    }

    /** For tests: caps other than {@link CoordinatorCaps#DEFAULT} (small ones, to reach them). */
    Builder caps(CoordinatorCaps c) {
      this.caps = Objects.requireNonNull(c);
      return this;
    }

    /** For tests: how often the revoked edges file is read without a request asking. */
    Builder revocationSweep(Duration d) {
      this.revocationSweep = requirePositive(d, "revocationSweep");
      return this;
    }

    /** For tests: this store (closed with the coordinator) instead of {@link #database}. */
    Builder store(CoordinatorStore s) {
      this.store = s;
      return this;
    }

    /** For tests: a {@link GroupController} instead of the HTTP one (implies network mode). */
    Builder groupController(GroupController g) {
      this.groups = g;
      return this;
    }

    public EdgeCoordinator start() throws IOException {
      if (database == null && store == null) {
        throw new IllegalArgumentException(
            "the coordinator needs a database (sqlite:PATH or postgresql://HOST/DATABASE)");
      }
      Optional<GroupController> g = Optional.ofNullable(groups);
      if (g.isEmpty() && controller != null) {
        if (!("http".equals(controller.getScheme()) || "https".equals(controller.getScheme()))
            || controller.getHost() == null) {
          throw new IllegalArgumentException(
              "--controller must be http(s)://HOST:PORT, not '" + controller + "'");
        }
        g =
            Optional.of(
                new HttpGroupController(
                    controller, controllerTimeout, controllerToken, controllerTls));
      }
      ServedKeys keys = null;
      if (datagramKeys != null) {
        if (auth == null) {
          throw new IllegalArgumentException(
              "--datagram-key: the coordinator hands keys only to authenticated agents;"
                  + " start it with --auth too");
        }
        keys = ServedKeys.load(datagramKeys, tls != null);
      }
      if (revokedEdges != null && keys == null) {
        throw new IllegalArgumentException(
            "--revoked-edges: the coordinator revokes edges in the keys it hands out;"
                + " start it with --datagram-key too");
      }
      if (rotateOnRevoke != null && revokedEdges == null) {
        throw new IllegalArgumentException(
            "--rotate-on-revoke: rotates the deployment keys when --revoked-edges names an edge;"
                + " start it with --revoked-edges too");
      }
      RevokedList revoked = revokedEdges == null ? null : RevokedList.load(revokedEdges);
      RevocationRotation rotation =
          rotateOnRevoke == null
              ? null
              : RevocationRotation.load(datagramKeys, rotateOnRevoke, wallMillis);
      CoordinatorStore store = this.store != null ? this.store : CoordinatorStore.open(database);
      try {
        CoordinatorService service = new CoordinatorService(store, g, ackTimeout, caps);
        Revocations revocations = new Revocations(revoked, service, revocationSweep, rotation);
        CoordinatorApi api;
        try {
          api =
              CoordinatorApi.start(service, listen, changeWait, auth, tls, keys, revocations, caps);
        } catch (IOException | RuntimeException e) {
          revocations.close();
          throw e;
        }
        return new RunningCoordinator(service, api, store);
      } catch (IOException | RuntimeException e) {
        store.close();
        throw e;
      }
    }

    private static Duration requirePositive(Duration d, String what) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive");
      }
      return d;
    }
  }
}
