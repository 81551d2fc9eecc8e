package org.netpubsub.http;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Meters over a process's own named counters (a {@code Map<String, Long>} it keeps already, whose
 * names appear as events happen: a drop reason, a NACK): {@link #refresh} — called before each
 * scrape ({@link RestServer.Builder#onScrape}) — reads one snapshot and registers a function
 * counter or gauge for each name not seen before. The counters are not kept twice.
 */
public final class DynamicMeters {
  /** How one name is exported; {@code null} from the naming function: not exported. */
  public record Meter(String name, String description, Tags tags, boolean gauge) {
    public static Meter counter(String name, String description, Tags tags) {
      return new Meter(name, description, tags, false);
    }

    public static Meter gauge(String name, String description, Tags tags) {
      return new Meter(name, description, tags, true);
    }
  }

  private final MeterRegistry registry;
  private final Supplier<Map<String, Long>> source;
  private final Function<String, Meter> naming;
  private final Set<String> registered = ConcurrentHashMap.newKeySet();
  private volatile Map<String, Long> last = Map.of();

  public DynamicMeters(
      MeterRegistry registry, Supplier<Map<String, Long>> source, Function<String, Meter> naming) {
    this.registry = registry;
    this.source = source;
    this.naming = naming;
  }

  /** Reads the counters once and registers the names not seen before. */
  public void refresh() {
    Map<String, Long> now = source.get();
    last = now;
    for (String key : now.keySet()) {
      if (!registered.add(key)) {
        continue;
      }
      Meter m = naming.apply(key);
      if (m == null) {
        continue;
      }
      if (m.gauge()) {
        Gauge.builder(m.name(), this, d -> d.value(key))
            .description(m.description())
            .tags(m.tags())
            .register(registry);
      } else {
        FunctionCounter.builder(m.name(), this, d -> d.value(key))
            .description(m.description())
            .tags(m.tags())
            .register(registry);
      }
    }
  }

  private double value(String key) {
    return last.getOrDefault(key, 0L);
  }
}
