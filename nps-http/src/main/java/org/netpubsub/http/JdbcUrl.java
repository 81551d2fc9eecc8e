package org.netpubsub.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A server's database option as JDBC takes it: {@code sqlite:PATH} (a file, created if missing) or
 * {@code postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE} (an existing database). The edge
 * coordinator's {@code --db} and the controller's {@code --store} read their URLs here, so both
 * take the same forms and refuse a bad one with the same words. Parsing is pure; the drivers are
 * each server's own dependency. {@link #display} leaves the password out, for messages.
 */
public final class JdbcUrl {
  /** The PostgreSQL form, as the options' help and errors spell it. */
  public static final String POSTGRESQL_FORM =
      "postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE";

  /** Which database a URL names. */
  public enum Kind {
    SQLITE,
    POSTGRESQL
  }

  private final Kind kind;
  private final String jdbc;
  private final Properties properties;
  private final String display;
  private final String where;

  private JdbcUrl(Kind kind, String jdbc, Properties properties, String display, String where) {
    this.kind = kind;
    this.jdbc = jdbc;
    this.properties = properties;
    this.display = display;
    this.where = where;
  }

  /** Parses {@code url}, given to {@code option} (named in the errors). */
  public static JdbcUrl parse(String option, String url) {
    if (url.startsWith("sqlite:")) {
      String path = url.substring("sqlite:".length());
      if (path.isEmpty()) {
        throw new IllegalArgumentException(option + " sqlite:PATH needs a path");
      }
      return new JdbcUrl(Kind.SQLITE, "jdbc:sqlite:" + path, new Properties(), url, path);
    }
    if (url.startsWith("postgresql://")) {
      return postgresql(option, url);
    }
    throw new IllegalArgumentException(
        option + " must be sqlite:PATH or postgresql://HOST[:PORT]/DATABASE, not '" + url + "'");
  }

  private static JdbcUrl postgresql(String option, String url) {
    URI u;
    try {
      u = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a PostgreSQL URL: " + url, e);
    }
    String database = u.getPath() == null ? "" : u.getPath().replaceFirst("^/", "");
    if (u.getHost() == null || database.isEmpty()) {
      throw new IllegalArgumentException(option + " " + POSTGRESQL_FORM + ", not '" + url + "'");
    }
    Properties p = new Properties();
    String user = "";
    if (u.getUserInfo() != null) {
      String[] parts = u.getUserInfo().split(":", 2);
      p.setProperty("user", parts[0]);
      user = parts[0] + "@";
      if (parts.length == 2) {
        p.setProperty("password", parts[1]);
      }
    }
    String hostPort = u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "");
    return new JdbcUrl(
        Kind.POSTGRESQL,
        "jdbc:postgresql://" + hostPort + "/" + database,
        p,
        "postgresql://" + user + hostPort + "/" + database,
        u.getHost() + "/" + database);
  }

  public Kind kind() {
    return kind;
  }

  /** The JDBC URL (no credentials: they go as properties). */
  public String jdbc() {
    return jdbc;
  }

  /** The URL without its password, for messages and logs. */
  public String display() {
    return display;
  }

  /** The file's path (SQLite) or {@code HOST/DATABASE} (PostgreSQL), for messages. */
  public String where() {
    return where;
  }

  /** A new connection (the driver must be on the class path). */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbc, (Properties) properties.clone());
  }
}
