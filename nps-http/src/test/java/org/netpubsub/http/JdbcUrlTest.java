package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link JdbcUrl}: the two forms both servers take, and refusals naming the option. */
class JdbcUrlTest {
  @Test
  void sqliteAndPostgresqlUrlsBecomeJdbcUrlsWithTheCredentialsApart() throws Exception {
    JdbcUrl f = JdbcUrl.parse("--db", "sqlite:/var/lib/nps/c.db");
    assertThat(f.kind()).isEqualTo(JdbcUrl.Kind.SQLITE);
    assertThat(f.jdbc()).isEqualTo("jdbc:sqlite:/var/lib/nps/c.db");
    assertThat(f.where()).isEqualTo("/var/lib/nps/c.db");

    JdbcUrl p = JdbcUrl.parse("--store", "postgresql://nps:s3cret@db.example:5433/nps");
    assertThat(p.kind()).isEqualTo(JdbcUrl.Kind.POSTGRESQL);
    assertThat(p.jdbc()).isEqualTo("jdbc:postgresql://db.example:5433/nps");
    assertThat(p.display()).isEqualTo("postgresql://nps@db.example:5433/nps");
    assertThat(p.where()).isEqualTo("db.example/nps");
    assertThat(JdbcUrl.parse("--db", "postgresql://h/d").jdbc()).isEqualTo("jdbc:postgresql://h/d");
  }

  @Test
  void aBadUrlIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> JdbcUrl.parse("--store", "sqlite:"))
        .hasMessage("--store sqlite:PATH needs a path");
    assertThatThrownBy(() -> JdbcUrl.parse("--db", "mysql://h/d"))
        .hasMessageStartingWith("--db must be sqlite:PATH or postgresql://");
    assertThatThrownBy(() -> JdbcUrl.parse("--store", "postgresql://h"))
        .hasMessage("--store " + JdbcUrl.POSTGRESQL_FORM + ", not 'postgresql://h'");
    assertThatThrownBy(() -> JdbcUrl.parse("--db", "postgresql://h /d"))
        .hasMessageStartingWith("not a PostgreSQL URL");
  }
}
