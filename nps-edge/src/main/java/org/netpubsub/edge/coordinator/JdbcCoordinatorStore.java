package org.netpubsub.edge.coordinator;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.netpubsub.http.JdbcUrl;

/**
 * {@link CoordinatorStore} over one JDBC connection (calls serialised), in a SQLite file or a
 * PostgreSQL database: the statements are the SQL both understand (upserts with {@code ON
 * CONFLICT}), so only connecting differs.
 */
final class JdbcCoordinatorStore implements CoordinatorStore {
  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS edges (name TEXT PRIMARY KEY, address TEXT NOT NULL,"
        + " port INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS filters (edge TEXT NOT NULL REFERENCES edges(name)"
        + " ON DELETE CASCADE, filter TEXT NOT NULL, PRIMARY KEY (edge, filter))",
    "CREATE TABLE IF NOT EXISTS exchanges (edge TEXT NOT NULL REFERENCES edges(name)"
        + " ON DELETE CASCADE, name TEXT NOT NULL, type TEXT NOT NULL, durable INTEGER NOT NULL,"
        + " PRIMARY KEY (edge, name))",
    // sources: edge names separated by a space (edge names have none)
    "CREATE TABLE IF NOT EXISTS groups (topic TEXT PRIMARY KEY, name TEXT NOT NULL,"
        + " sources TEXT NOT NULL)",
  };

  private final Connection db;

  private JdbcCoordinatorStore(Connection db) {
    this.db = db;
  }

  /** A SQLite file, created if missing. */
  static JdbcCoordinatorStore sqlite(String path) {
    try {
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + path);
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA foreign_keys = ON");
        s.execute("PRAGMA journal_mode = WAL");
      }
      return withSchema(c);
    } catch (SQLException e) {
      throw new IllegalArgumentException("cannot open SQLite database " + path + ": " + e, e);
    }
  }

  /**
   * A PostgreSQL database, {@code postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE}; the tables
   * are created if missing.
   */
  static JdbcCoordinatorStore postgresql(JdbcUrl url) {
    try {
      return withSchema(url.connect());
    } catch (SQLException e) {
      throw new IllegalArgumentException(
          "cannot open PostgreSQL database " + url.where() + ": " + e, e);
    }
  }

  private static JdbcCoordinatorStore withSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String ddl : SCHEMA) {
        s.execute(ddl);
      }
    }
    return new JdbcCoordinatorStore(c);
  }

  @Override
  public synchronized long version() {
    try (PreparedStatement p = db.prepareStatement("SELECT value FROM meta WHERE key='version'");
        ResultSet r = p.executeQuery()) {
      return r.next() ? r.getLong(1) : 0;
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public synchronized void saveVersion(long version) {
    update(
        "INSERT INTO meta (key, value) VALUES ('version', ?)"
            + " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        version);
  }

  @Override
  public synchronized Map<Edge, List<String>> edges() {
    Map<String, Edge> byName = new LinkedHashMap<>();
    Map<Edge, List<String>> out = new LinkedHashMap<>();
    try (Statement s = db.createStatement()) {
      try (ResultSet r = s.executeQuery("SELECT name, address, port FROM edges ORDER BY name")) {
        while (r.next()) {
          Edge e = new Edge(r.getString(1), r.getString(2), r.getInt(3));
          byName.put(e.name(), e);
          out.put(e, new ArrayList<>());
        }
      }
      try (ResultSet r = s.executeQuery("SELECT edge, filter FROM filters ORDER BY edge, filter")) {
        while (r.next()) {
          Edge e = byName.get(r.getString(1));
          if (e != null) {
            out.get(e).add(r.getString(2));
          }
        }
      }
      return out;
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public synchronized void putEdge(Edge e) {
    update(
        "INSERT INTO edges (name, address, port) VALUES (?, ?, ?) ON CONFLICT(name)"
            + " DO UPDATE SET address = excluded.address, port = excluded.port",
        e.name(),
        e.address(),
        e.port());
  }

  @Override
  public synchronized int edgeCount() {
    return count("SELECT COUNT(*) FROM edges");
  }

  @Override
  public synchronized int filterCount(String edge) {
    return count("SELECT COUNT(*) FROM filters WHERE edge = ?", edge);
  }

  private int count(String sql, Object... args) {
    try (PreparedStatement p = db.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        p.setObject(i + 1, args[i]);
      }
      try (ResultSet r = p.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public synchronized void removeEdge(String name) {
    update("DELETE FROM edges WHERE name = ?", name);
  }

  @Override
  public synchronized void addFilters(String edge, Collection<String> filters) {
    for (String f : filters) {
      update(
          "INSERT INTO filters (edge, filter) VALUES (?, ?) ON CONFLICT (edge, filter) DO NOTHING",
          edge,
          f);
    }
  }

  @Override
  public synchronized void removeFilters(String edge, Collection<String> filters) {
    for (String f : filters) {
      update("DELETE FROM filters WHERE edge = ? AND filter = ?", edge, f);
    }
  }

  @Override
  public synchronized Map<String, List<Exchange>> exchanges() {
    Map<String, List<Exchange>> out = new LinkedHashMap<>();
    try (Statement s = db.createStatement();
        ResultSet r =
            s.executeQuery("SELECT edge, name, type, durable FROM exchanges ORDER BY edge, name")) {
      while (r.next()) {
        out.computeIfAbsent(r.getString(1), k -> new ArrayList<>())
            .add(new Exchange(r.getString(2), r.getString(3), r.getInt(4) != 0));
      }
      return out;
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public synchronized void addExchanges(String edge, Collection<Exchange> exchanges) {
    for (Exchange x : exchanges) {
      update(
          "INSERT INTO exchanges (edge, name, type, durable) VALUES (?, ?, ?, ?)"
              + " ON CONFLICT (edge, name) DO NOTHING",
          edge,
          x.name(),
          x.type(),
          x.durable() ? 1 : 0);
    }
  }

  @Override
  public synchronized void removeExchanges(String edge, Collection<String> names) {
    for (String n : names) {
      update("DELETE FROM exchanges WHERE edge = ? AND name = ?", edge, n);
    }
  }

  @Override
  public synchronized List<Group> groups() {
    List<Group> out = new ArrayList<>();
    try (Statement s = db.createStatement();
        ResultSet r = s.executeQuery("SELECT topic, name, sources FROM groups ORDER BY topic")) {
      while (r.next()) {
        String src = r.getString(3);
        out.add(
            new Group(
                r.getString(1),
                r.getString(2),
                src.isEmpty() ? new TreeSet<>() : new TreeSet<>(Arrays.asList(src.split(" ")))));
      }
      return out;
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public synchronized void putGroup(Group g) {
    update(
        "INSERT INTO groups (topic, name, sources) VALUES (?, ?, ?) ON CONFLICT(topic)"
            + " DO UPDATE SET name = excluded.name, sources = excluded.sources",
        g.topic(),
        g.name(),
        String.join(" ", new TreeSet<>(g.sources())));
  }

  @Override
  public synchronized void removeGroup(String topic) {
    update("DELETE FROM groups WHERE topic = ?", topic);
  }

  @Override
  public synchronized void close() {
    try {
      db.close();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public synchronized void transaction(Runnable work) {
    try {
      if (!db.getAutoCommit()) {
        work.run(); // nested: part of the transaction already open
        return;
      }
      db.setAutoCommit(false);
      try {
        work.run();
        db.commit();
      } catch (RuntimeException | Error e) {
        db.rollback();
        throw e;
      } finally {
        db.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  private void update(String sql, Object... args) {
    try (PreparedStatement p = db.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        p.setObject(i + 1, args[i]);
      }
      p.executeUpdate();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  private static IllegalStateException failed(SQLException e) {
    return new IllegalStateException("coordinator database: " + e.getMessage(), e);
  }
}
