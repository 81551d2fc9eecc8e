package org.netpubsub.edge.coordinator;

import java.io.Closeable;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.http.JdbcUrl;

/**
 * The coordinator's durable state: edges, the filters present at each, topic → network group, and
 * the change counter. All SQL lives in one implementation per database; {@link #open} picks it by
 * URL. Implementations are thread-safe.
 */
public interface CoordinatorStore extends Closeable {
  /** A network group: the controller's name for a topic's tree and the edges that send on it. */
  record Group(String topic, String name, Set<String> sources) {}

  /**
   * Opens {@code sqlite:PATH} (created if missing) or {@code
   * postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE} (an existing database; the tables are
   * created if missing); anything else is an error ({@link JdbcUrl}, which the controller's {@code
   * --store} shares).
   */
  static CoordinatorStore open(String url) {
    JdbcUrl u = JdbcUrl.parse("--db", url);
    return u.kind() == JdbcUrl.Kind.SQLITE
        ? JdbcCoordinatorStore.sqlite(u.where())
        : JdbcCoordinatorStore.postgresql(u);
  }

  long version();

  void saveVersion(long version);

  /** Every edge with its filters. */
  Map<Edge, List<String>> edges();

  void putEdge(Edge e);

  /**
   * Edges stored, as the current transaction sees them: a cap is checked against this after the
   * request's writes, inside its {@link #transaction}, so two requests can never both take the last
   * place (issue 27).
   */
  int edgeCount();

  /**
   * Filters stored for {@code edge}, as the current transaction sees them (see {@link #edgeCount}).
   */
  int filterCount(String edge);

  void removeEdge(String name);

  void addFilters(String edge, Collection<String> filters);

  void removeFilters(String edge, Collection<String> filters);

  /** Per edge, the exchanges its clients declared. */
  Map<String, List<Exchange>> exchanges();

  void addExchanges(String edge, Collection<Exchange> exchanges);

  void removeExchanges(String edge, Collection<String> names);

  List<Group> groups();

  void putGroup(Group g);

  void removeGroup(String topic);

  /**
   * Runs {@code work}'s writes as one transaction: all of them are durable, or none (a crash or an
   * exception mid-way leaves the state before it). Issue 27: a request is applied whole.
   */
  default void transaction(Runnable work) {
    work.run();
  }

  @Override
  void close();
}
