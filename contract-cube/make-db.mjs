// The DuckDB file behind the contract model: a few rows per table, enough for
// the planner (which reads no data) and for a test that runs the SQL /v1/sql
// answers. Written only when the file does not exist yet.
import { existsSync } from 'node:fs';

const TABLES = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR, region VARCHAR, signed_up_at TIMESTAMP);
INSERT INTO customers VALUES (1, 'Ada', 'EMEA', '2026-01-05'), (2, 'Grace', 'AMER', '2026-02-11');
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, status VARCHAR, amount DOUBLE,
  cost DOUBLE, is_paid BOOLEAN, created_at TIMESTAMP);
INSERT INTO orders VALUES (1, 1, 'completed', 120, 80, true, '2026-03-01'),
  (2, 2, 'processing', 75.5, 40, false, '2026-04-15'), (3, 1, 'completed', 30, 12, true, '2026-05-20');
CREATE TABLE events (id INTEGER PRIMARY KEY, kind VARCHAR, occurred_at TIMESTAMP);
INSERT INTO events VALUES (1, 'login', '2026-03-02'), (2, 'logout', '2026-03-03');
CREATE TABLE audit_log (id INTEGER PRIMARY KEY, action VARCHAR, happened_at TIMESTAMP);
INSERT INTO audit_log VALUES (1, 'delete', '2026-03-04');
`;

export async function makeDb(file) {
  if (existsSync(file)) return;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    await conn.run(TABLES);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
