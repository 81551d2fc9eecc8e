package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.http.PostgresServer;

/**
 * The coordinator's two stores side by side: the same random sequence of writes to a SQLite file
 * and to a real PostgreSQL database reads back the same after every step, and both keep it across a
 * reopen. PostgreSQL runs as a private cluster (skipped where it is not installed or the tests do
 * not run as root; scripts/bootstrap installs it).
 */
class CoordinatorStoresTest {
  private static PostgresServer postgres;

  @BeforeAll
  static void startPostgres() throws Exception {
    if (PostgresServer.available()) {
      postgres = PostgresServer.shared(); // stopped when the JVM exits
    }
  }

  @Test
  void sqliteAndPostgresqlHoldTheSameStateThroughRandomWritesAndAReopen(@TempDir Path dir) {
    assumeTrue(postgres != null, "PostgreSQL is not installed here, or not running as root");
    String sqliteUrl = "sqlite:" + dir.resolve("c.db");
    Random r = new Random(7);
    try (CoordinatorStore lite = CoordinatorStore.open(sqliteUrl);
        CoordinatorStore pg = CoordinatorStore.open(postgres.url())) {
      for (int step = 0; step < 300; step++) {
        long seed = r.nextLong(); // the same operation for both stores
        apply(new Random(seed), lite);
        apply(new Random(seed), pg);
        assertSame(lite, pg);
      }
    }
    try (CoordinatorStore lite = CoordinatorStore.open(sqliteUrl);
        CoordinatorStore pg = CoordinatorStore.open(postgres.url())) {
      assertSame(lite, pg);
      assertThat(pg.version()).isPositive();
    }
  }

  private static void apply(Random r, CoordinatorStore s) {
    String edge = "e" + r.nextInt(4);
    switch (r.nextInt(7)) {
      case 0 -> s.putEdge(new Edge(edge, "::1", 7000 + r.nextInt(3)));
      case 1 -> s.removeEdge(edge);
      case 2 -> {
        if (s.edges().keySet().stream().anyMatch(e -> e.name().equals(edge))) {
          s.addFilters(edge, List.of("a/" + r.nextInt(3), "b/#"));
        }
      }
      case 3 -> s.removeFilters(edge, List.of("a/" + r.nextInt(3)));
      case 4 -> s.putGroup(new CoordinatorStore.Group("t/" + r.nextInt(3), "g", Set.of(edge)));
      case 5 -> s.removeGroup("t/" + r.nextInt(3));
      default -> s.saveVersion(1 + r.nextInt(1 << 20) + (1L << 33)); // beyond 32 bits
    }
  }

  private static void assertSame(CoordinatorStore a, CoordinatorStore b) {
    assertThat(b.edges()).isEqualTo(a.edges());
    assertThat(b.groups()).isEqualTo(a.groups());
    assertThat(b.version()).isEqualTo(a.version());
  }

  @Test
  void badDatabaseUrlsAreRefusedWithTheForm() {
    assertThatThrownBy(() -> CoordinatorStore.open("postgresql://127.0.0.1"))
        .hasMessageContaining("postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DATABASE");
    assertThatThrownBy(() -> CoordinatorStore.open("postgresql://127.0.0.1:1/nps"))
        .hasMessageContaining("cannot open PostgreSQL database");
    assertThatThrownBy(() -> CoordinatorStore.open("mysql:x"))
        .hasMessageContaining("sqlite:PATH or postgresql://");
  }
}
