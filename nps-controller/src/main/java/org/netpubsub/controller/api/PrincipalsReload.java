package org.netpubsub.controller.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.controller.pubsub.Ingress;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RegionRecut;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Principals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a principals reload does to the standing requests (docs/security-rest.md): the pub/sub
 * service re-cuts them to the new regions ({@link RegionRecut}), the ingress drops follow the
 * advertisements' new covers, each request re-cut or withdrawn is counted in {@code
 * nps_auth_recut_total{outcome}}, and one line per reload says how many. The reload's thread waits
 * for it (at most {@link #WAIT_SECONDS}), so reloads re-cut one after the other. Requests the
 * routing could not re-cut then (not ready, a restart's hold) are tried again every second, with
 * the principals in force, for up to {@link #RETRIES} s. At start the requests restored from a
 * store are re-cut to the file in force (it may have changed while the controller was down). In a
 * cluster each process re-cuts the requests it accepted (their owners are known there), on its own
 * reload of its own file.
 */
final class PrincipalsReload {
  private static final Logger LOG = LoggerFactory.getLogger(PrincipalsReload.class);
  static final long WAIT_SECONDS = 60;
  static final int RETRIES = 60;

  private final Authenticator auth;
  private final PubSubService service;
  private final Optional<Ingress> ingress;
  private final Counter recut;
  private final Counter withdrawn;
  private final Counter relabelled;
  private final Counter failed;

  private PrincipalsReload(
      Authenticator auth, PubSubService service, Optional<Ingress> ingress, MeterRegistry m) {
    this.auth = auth;
    this.service = service;
    this.ingress = ingress;
    this.recut = counter(m, "recut", "replaced by the cover of filter ∧ new region");
    this.withdrawn = counter(m, "withdrawn", "withdrawn: no cover, no principal or no right");
    this.relabelled = counter(m, "relabelled", "new region recorded, the cover unchanged");
    this.failed = counter(m, "failed", "not re-cut then (the old cover stands)");
  }

  private static Counter counter(MeterRegistry m, String outcome, String what) {
    return Counter.builder("nps.auth.recut")
        .description("standing requests a principals reload re-cut, by outcome: " + what)
        .tag("outcome", outcome)
        .register(m);
  }

  /** Re-cuts {@code service}'s standing requests after each of {@code auth}'s reloads. */
  static void bind(
      Authenticator auth, PubSubService service, Optional<Ingress> ingress, MeterRegistry m) {
    PrincipalsReload r = new PrincipalsReload(auth, service, ingress, m);
    auth.onReload(r::reloaded);
    if (service.clusterMember().isEmpty()) { // restored requests (--store) to the file in force
      Thread.ofVirtual().name("nps-recut-start").start(() -> r.recut("at start", 0));
    }
  }

  /** The regions a principals file grants, as the service takes them (as PubSubRoutes.access). */
  static RegionRecut.Regions regions(Principals principals) {
    return (owner, kind) ->
        principals
            .byName(owner)
            .flatMap(p -> kind == PubSubRequest.Kind.SUBSCRIPTION ? p.subscribe() : p.advertise())
            .map(
                f ->
                    f.equals(Principal.ANYWHERE)
                        ? RegionRecut.Region.ANYWHERE
                        : new RegionRecut.Region(Optional.of(f)));
  }

  private void reloaded(Principals principals) {
    recut(principals, "principals reloaded", 0);
  }

  /** Re-cuts to the principals in force ({@code what}: for the log line). */
  private void recut(String what, int attempt) {
    recut(auth.principals(), what, attempt);
  }

  private void recut(Principals principals, String what, int attempt) {
    long start = System.nanoTime();
    try {
      RegionRecut.Outcome o =
          service
              .recut(regions(principals))
              .thenCompose(
                  out ->
                      out.recut() + out.withdrawn() == 0 || ingress.isEmpty()
                          ? CompletableFuture.completedFuture(out)
                          : ingress.get().syncReplaced().handle((x, err) -> out))
              .get(WAIT_SECONDS, TimeUnit.SECONDS);
      recut.increment(o.recut());
      withdrawn.increment(o.withdrawn());
      relabelled.increment(o.relabelled());
      failed.increment(o.failed());
      if (attempt == 0
          && what.equals("at start")
          && o.equals(new RegionRecut.Outcome(0, 0, 0, o.unchanged(), 0))) {
        return; // nothing restored, or restored under the regions in force
      }
      String line =
          String.format(
              "%s: %d standing requests re-cut, %d withdrawn, %d with the new"
                  + " region and the same cover, %d unchanged, %d not re-cut (old cover stands),"
                  + " in %.0f ms",
              what,
              o.recut(),
              o.withdrawn(),
              o.relabelled(),
              o.unchanged(),
              o.failed(),
              (System.nanoTime() - start) / 1e6);
      if (o.failed() > 0 && attempt < RETRIES) {
        LOG.warn("{}: tried again in a second", line);
        CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS, t -> Thread.ofVirtual().start(t))
            .execute(() -> recut("re-cut tried again", attempt + 1));
      } else if (o.failed() > 0) {
        LOG.warn("{}: they keep their old cover until a later reload re-cuts them", line);
      } else {
        LOG.info(line);
      }
    } catch (TimeoutException e) {
      LOG.warn("{}: the re-cut goes on after {} s", what, WAIT_SECONDS);
    } catch (ExecutionException e) {
      LOG.warn("{}: standing requests not re-cut: {}", what, e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
