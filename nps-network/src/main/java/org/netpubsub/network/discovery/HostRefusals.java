package org.netpubsub.network.discovery;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Hosts that neighbour discovery did not learn, or that {@code POST /v1/hosts} did not register
 * (answered 429), because their port is full ({@link Ipv6NeighborDiscovery#MAX_HOSTS_PER_PORT}):
 * counted by reason (the controller's {@code nps_hosts_refused_total{reason}}), and logged at most
 * once per {@link #LOG_INTERVAL_MILLIS}. The first refusal is logged at once; a later line names
 * the port and address of the refusal that triggers it and counts the refusals since the previous
 * line. One limiter for every port, not one per port: a map keyed by the ports of spoofed traffic
 * would be remote input to bound, and one line a minute already says that a port is being flooded
 * (the counter says how much).
 *
 * <p>Counters are read from any thread (scrapes); refusals come from the controller loop and the
 * REST API's threads.
 */
public final class HostRefusals {
  private static final System.Logger LOG = System.getLogger(HostRefusals.class.getName());

  /** At most one log line per this many milliseconds. */
  public static final long LOG_INTERVAL_MILLIS = 60_000;

  /** Why a host was not learned. */
  public enum Reason {
    /** A new address at a port that holds its limit of hosts already. */
    PORT_FULL,
    /** A known host announcing itself at another port, which is full. */
    MOVE_TO_FULL_PORT,
    /** {@code POST /v1/hosts} registering a new address at a full port. */
    REGISTER_PORT_FULL,
    /** {@code POST /v1/hosts} moving a known host to another port, which is full. */
    REGISTER_MOVE_TO_FULL_PORT;

    /** Its metric tag. */
    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The reason of a full port: a registration's if {@code registered}, else discovery's. */
    public static Reason of(boolean registered, boolean known) {
      if (registered) {
        return known ? REGISTER_MOVE_TO_FULL_PORT : REGISTER_PORT_FULL;
      }
      return known ? MOVE_TO_FULL_PORT : PORT_FULL;
    }

    private boolean registration() {
      return this == REGISTER_PORT_FULL || this == REGISTER_MOVE_TO_FULL_PORT;
    }
  }

  private final LongSupplier clock;
  private final Map<Reason, AtomicLong> counts = new EnumMap<>(Reason.class);
  private boolean logged; // guarded by this
  private long lastLine; // guarded by this: when the last line was logged
  private long sinceLine; // guarded by this: refusals since (not counting) the last line

  /** Refusals timed by {@code clockMillis} (milliseconds, any origin). */
  public HostRefusals(LongSupplier clockMillis) {
    this.clock = clockMillis;
    for (Reason r : Reason.values()) {
      counts.put(r, new AtomicLong());
    }
  }

  /** Refusals timed by the system clock. */
  public HostRefusals() {
    this(System::currentTimeMillis);
  }

  /** Refusals of this reason so far. */
  public long count(Reason reason) {
    return counts.get(reason).get();
  }

  /** Counts one refusal; returns the line logged for it, if it was its turn. */
  public Optional<String> refused(Reason reason, SwitchPort at, Ipv6Address address) {
    counts.get(reason).incrementAndGet();
    long now = clock.getAsLong();
    long count;
    synchronized (this) {
      if (logged && now - lastLine < LOG_INTERVAL_MILLIS) {
        sinceLine++;
        return Optional.empty();
      }
      count = sinceLine + 1;
      logged = true;
      lastLine = now;
      sinceLine = 0;
    }
    String line =
        "switch "
            + Long.toHexString(at.dpid())
            + " port "
            + at.port()
            + (reason.registration() ? ": did not register host " : ": did not learn host ")
            + address
            + " ("
            + reason.tag()
            + ": the port has "
            + Ipv6NeighborDiscovery.MAX_HOSTS_PER_PORT
            + " hosts, the limit); "
            + count
            + (count == 1 ? " refusal" : " refusals")
            + " since the last such line, at most one line a minute"
            + " (nps_hosts_refused_total counts them all)";
    LOG.log(System.Logger.Level.WARNING, line);
    return Optional.of(line);
  }
}
