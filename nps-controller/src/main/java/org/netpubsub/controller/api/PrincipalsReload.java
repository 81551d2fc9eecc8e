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
 * for it (at most {@link #WAIT_SECONDS}), so reloads re-cut one after the other. In a cluster
 * nothing is re-cut: one WARN per reload says so (docs/security.md, "Not protected yet").
 */
final class PrincipalsReload {
  private static final Logger LOG = LoggerFactory.getLogger(PrincipalsReload.class);
  static final long WAIT_SECONDS = 60;

  private final PubSubService service;
  private final Optional<Ingress> ingress;
  private final Counter recut;
  private final Counter withdrawn;
  private final Counter relabelled;
  private final Counter failed;

  private PrincipalsReload(PubSubService service, Optional<Ingress> ingress, MeterRegistry m) {
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
    PrincipalsReload r = new PrincipalsReload(service, ingress, m);
    auth.onReload(r::reloaded);
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
    if (service.clusterMember().isPresent()) {
      LOG.warn(
          "principals reloaded: standing requests are not re-cut in a cluster of controller"
              + " processes; withdraw and resubmit those of principals whose regions narrowed"
              + " (docs/security.md)");
      return;
    }
    long start = System.nanoTime();
    try {
      RegionRecut.Outcome o =
          service
              .recut(regions(principals))
              .thenCompose(
                  out ->
                      out.recut() + out.withdrawn() == 0 || ingress.isEmpty()
                          ? CompletableFuture.completedFuture(out)
                          : ingress.get().sync().handle((x, err) -> out))
              .get(WAIT_SECONDS, TimeUnit.SECONDS);
      recut.increment(o.recut());
      withdrawn.increment(o.withdrawn());
      relabelled.increment(o.relabelled());
      failed.increment(o.failed());
      String line =
          String.format(
              "principals reloaded: %d standing requests re-cut, %d withdrawn, %d with the new"
                  + " region and the same cover, %d unchanged, %d not re-cut (old cover stands),"
                  + " in %.0f ms",
              o.recut(),
              o.withdrawn(),
              o.relabelled(),
              o.unchanged(),
              o.failed(),
              (System.nanoTime() - start) / 1e6);
      if (o.failed() > 0) {
        LOG.warn("{}: they keep their cover until a later reload re-cuts them", line);
      } else {
        LOG.info(line);
      }
    } catch (TimeoutException e) {
      LOG.warn("principals reloaded: the re-cut goes on after {} s", WAIT_SECONDS);
    } catch (ExecutionException e) {
      LOG.warn("principals reloaded: standing requests not re-cut: {}", e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
