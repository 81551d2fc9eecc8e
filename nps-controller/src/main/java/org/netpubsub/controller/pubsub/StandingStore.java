package org.netpubsub.controller.pubsub;

import java.io.Closeable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.netpubsub.http.JdbcUrl;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.topology.Topology;

/**
 * A controller's standing requests, multicast groups and last settled topology in a SQLite file
 * ({@code --store sqlite:PATH}) or a PostgreSQL database ({@code --store postgresql://...}), so a
 * restarted controller (PLEROMA or Camus) computes the tables the switches already hold before it
 * reconciles any (docs/controller.md, "Restart"). As the edge coordinator's store: one transaction
 * per request (a crash mid-request leaves the file without it or with all of it), bounded row
 * counts, and a bad row at load names its table, row and field. Writes run on one thread of their
 * own, in the order asked, never on the controller loop.
 */
public final class StandingStore implements Closeable {
  /** At most this many requests, hosts, links or switches (a write over it fails, rolled back). */
  public static final int MAX_ROWS = 1_000_000;

  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS nps_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nps_requests (id TEXT PRIMARY KEY, kind TEXT NOT NULL,"
        + " host TEXT NOT NULL, port INTEGER NOT NULL, filter TEXT NOT NULL, region TEXT,"
        + " owner TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nps_switches (dpid BIGINT PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS nps_links (a_dpid BIGINT NOT NULL, a_port BIGINT NOT NULL,"
        + " b_dpid BIGINT NOT NULL, b_port BIGINT NOT NULL, PRIMARY KEY (a_dpid, a_port))",
    "CREATE TABLE IF NOT EXISTS nps_hosts (address TEXT PRIMARY KEY, mac BIGINT NOT NULL,"
        + " dpid BIGINT NOT NULL, port BIGINT NOT NULL)",
    // a multicast group as PUT: members and sources are space-separated addresses
    "CREATE TABLE IF NOT EXISTS nps_groups (name TEXT PRIMARY KEY, strategy TEXT NOT NULL,"
        + " members TEXT NOT NULL, sources TEXT NOT NULL)",
  };

  /** A standing request as stored: what rebuilds it ({@code region} the principal's, if any). */
  public record Row(
      String id,
      PubSubRequest.Kind kind,
      String host,
      int port,
      String filter,
      Optional<String> region,
      String owner) {}

  /**
   * What a restart starts from: the requests and the multicast groups, and the topology they were
   * compiled on.
   */
  public record Contents(List<Row> requests, List<GroupSpec> groups, Topology topology) {}

  private final String name;
  private final Connection db;
  private final ExecutorService writer =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "nps-standing-store");
            t.setDaemon(true);
            return t;
          });
  private final AtomicReference<Topology> pendingTopology = new AtomicReference<>();
  private volatile boolean closed;

  private StandingStore(String name, Connection db) {
    this.name = name;
    this.db = db;
  }

  /** {@link #open(String, Map)} with the one field {@code routing} ("camus-mr alpha 1"). */
  public static StandingStore open(String url, String routing) {
    return open(url, Map.of("routing", routing));
  }

  /**
   * Opens {@code sqlite:PATH} (created if missing) or {@code postgresql://...} (an existing
   * database, the tables created if missing; {@link JdbcUrl}, as the edge coordinator's) for a
   * routing and its parameters ({@code fields}, checked in their order: routing first); a store
   * written under another value of any of them is refused naming the field, since its rows would
   * compile to other tables. A field the store lacks is written.
   */
  public static StandingStore open(String url, Map<String, String> fields) {
    JdbcUrl u = JdbcUrl.parse("--store", url);
    Connection c = null;
    try {
      c = u.connect();
      try (Statement s = c.createStatement()) {
        if (u.kind() == JdbcUrl.Kind.SQLITE) {
          s.execute("PRAGMA journal_mode = WAL");
          s.execute("PRAGMA synchronous = FULL"); // a 201 means the request survives a power cut
        } // PostgreSQL's commit waits for its WAL on disk by default (synchronous_commit)
        for (String ddl : SCHEMA) {
          s.execute(ddl);
        }
      }
      c.setAutoCommit(false);
      StandingStore store = new StandingStore(u.display(), c);
      store.checkFields(fields);
      return store;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(c); // a refused start leaves no connection behind
      if (e instanceof IllegalArgumentException refused) {
        throw refused;
      }
      throw new IllegalArgumentException(
          "--store " + u.display() + ": cannot open: " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing after a failed start: nothing was written
      }
    }
  }

  private void checkFields(Map<String, String> fields) throws SQLException {
    for (Map.Entry<String, String> f : fields.entrySet()) {
      try (PreparedStatement q = db.prepareStatement("SELECT value FROM nps_meta WHERE key = ?")) {
        q.setString(1, f.getKey());
        try (ResultSet rs = q.executeQuery()) {
          if (rs.next() && !rs.getString(1).equals(f.getValue())) {
            db.rollback();
            throw new IllegalArgumentException(
                "--store "
                    + name
                    + ": field "
                    + f.getKey()
                    + ": holds requests of '"
                    + rs.getString(1)
                    + "', not '"
                    + f.getValue()
                    + "'");
          }
        }
      }
    }
    try (PreparedStatement u =
        db.prepareStatement(
            "INSERT INTO nps_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING")) {
      for (Map.Entry<String, String> f : fields.entrySet()) {
        u.setString(1, f.getKey());
        u.setString(2, f.getValue());
        u.executeUpdate();
      }
    }
    db.commit();
  }

  /** Everything stored, checked row by row (a bad row: which table, row and field). */
  public Contents load() {
    try {
      return StandingRows.read(db, name);
    } catch (SQLException e) {
      throw new IllegalArgumentException("--store " + name + ": cannot read: " + e.getMessage(), e);
    }
  }

  /** Records a standing request; completes once it is committed. */
  public CompletableFuture<Void> added(Row r) {
    return written(r, "NOTHING");
  }

  /**
   * Records a standing request, replacing the row of its id (a principals reload re-cut it to a new
   * region: RegionRecut); completes once it is committed.
   */
  public CompletableFuture<Void> replaced(Row r) {
    return written(
        r,
        "UPDATE SET kind = excluded.kind, host = excluded.host, port = excluded.port,"
            + " filter = excluded.filter, region = excluded.region, owner = excluded.owner");
  }

  private CompletableFuture<Void> written(Row r, String onConflict) {
    return write(
        () -> {
          capped("nps_requests", 1);
          try (PreparedStatement p =
              db.prepareStatement(
                  "INSERT INTO nps_requests (id, kind, host, port, filter, region, owner)"
                      + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO "
                      + onConflict)) {
            p.setString(1, r.id());
            p.setString(2, r.kind().name());
            p.setString(3, r.host());
            p.setInt(4, r.port());
            p.setString(5, r.filter());
            p.setString(6, r.region().orElse(null));
            p.setString(7, r.owner());
            p.executeUpdate();
          }
        });
  }

  /** Forgets a request (withdrawn); completes once committed. */
  public CompletableFuture<Void> removed(String id) {
    return write(
        () -> {
          try (PreparedStatement p = db.prepareStatement("DELETE FROM nps_requests WHERE id = ?")) {
            p.setString(1, id);
            p.executeUpdate();
          }
        });
  }

  /** Records a multicast group, new or replacing one of its name; completes once committed. */
  public CompletableFuture<Void> groupPut(GroupSpec g) {
    return write(
        () -> {
          capped("nps_groups", 1);
          StandingRows.writeGroup(db, g);
        });
  }

  /** Forgets a multicast group (deleted); completes once committed. */
  public CompletableFuture<Void> groupRemoved(String name) {
    return write(
        () -> {
          try (PreparedStatement p = db.prepareStatement("DELETE FROM nps_groups WHERE name = ?")) {
            p.setString(1, name);
            p.executeUpdate();
          }
        });
  }

  /**
   * Records the topology the switches' tables are now built on, replacing the last; only the latest
   * of several asked for meanwhile is written.
   */
  public void topology(Topology t) {
    if (closed) {
      return; // the controller's last changes as it stops (its switches leaving) are not kept
    }
    if (pendingTopology.getAndSet(t) == null) {
      write(() -> StandingRows.writeTopology(db, pendingTopology.getAndSet(null), MAX_ROWS))
          .exceptionally(
              e -> {
                System.getLogger(StandingStore.class.getName())
                    .log(
                        System.Logger.Level.WARNING, "--store " + name + ": topology not saved", e);
                return null;
              });
    }
  }

  private void capped(String table, int adding) throws SQLException {
    try (Statement s = db.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      if (rs.getLong(1) + adding > MAX_ROWS) {
        throw new SQLException(table + " holds " + MAX_ROWS + " rows already");
      }
    }
  }

  private interface Work {
    void run() throws SQLException;
  }

  /** One transaction on the writer thread: committed whole or rolled back whole. */
  private CompletableFuture<Void> write(Work w) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            w.run();
            db.commit();
          } catch (SQLException e) {
            try {
              db.rollback();
            } catch (SQLException again) {
              e.addSuppressed(again);
            }
            throw new IllegalStateException("--store " + name + ": " + e.getMessage(), e);
          }
        },
        writer);
  }

  /** Waits for the writes asked for so far (tests, and a clean stop). */
  public void flush() {
    CompletableFuture.runAsync(() -> {}, writer).join();
  }

  @Override
  public void close() {
    closed = true;
    flush();
    writer.shutdown();
    try {
      db.close();
    } catch (SQLException e) {
      // closing: nothing is pending (flushed), so nothing is lost
    }
  }
}
