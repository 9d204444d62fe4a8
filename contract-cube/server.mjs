// The open-source Cube server in production mode over a DuckDB file, for the
// Core Data API contract test (test/e2e/cube-contract.test.ts). Run from any
// directory: node contract-cube/server.mjs
//
// Environment: PORT (default 4000), CUBEJS_API_SECRET (the HS256 secret of the
// tokens it accepts), CUBEJS_DB_DUCKDB_DATABASE_PATH (the DuckDB file; made
// by make-db.mjs when missing). Prints `ready <port>` on stdout once it answers.
//
// Cube's native module (@cubejs-backend/native) ships no binary through the
// npm registry (its install step downloads one, and the package is installed
// with --ignore-scripts): its few exports the REST API's startup calls are
// replaced by no-ops before the server loads. /v1/meta, /v1/sql and
// /v1/dry-run need nothing more; /v1/load and the SQL API would.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDb } from './make-db.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// The CommonJS module object itself: the server's own require() gets the same one.
const { default: native } = await import('@cubejs-backend/native');
native.setupLogger = () => {};
native.resetLogger = () => {};
native.isFallbackBuild = () => true;
native.redactSqlLiterals = (sql) => sql;
// Plain YAML models need no Jinja: an engine that is never called.
native.NativeInstance.prototype.newJinjaEngine = () => ({
  loadTemplate() {},
  renderTemplate() {
    throw new Error('Jinja is not available in this build');
  },
});

const defaults = {
  PORT: '4000',
  CUBEJS_DB_TYPE: 'duckdb',
  CUBEJS_CACHE_AND_QUEUE_DRIVER: 'memory',
  CUBEJS_TESSERACT_SQL_PLANNER: 'false',
  CUBEJS_DEV_MODE: 'false',
  CUBEJS_TELEMETRY: 'false',
  CUBEJS_LOG_LEVEL: 'error',
  NODE_ENV: 'production',
};
for (const [k, v] of Object.entries(defaults)) if (process.env[k] === undefined) process.env[k] = v;
if (!process.env.CUBEJS_API_SECRET) throw new Error('CUBEJS_API_SECRET is not set');
if (!process.env.CUBEJS_DB_DUCKDB_DATABASE_PATH) throw new Error('CUBEJS_DB_DUCKDB_DATABASE_PATH is not set');

async function main() {
  await makeDb(process.env.CUBEJS_DB_DUCKDB_DATABASE_PATH);
  const { CubejsServer } = (await import('@cubejs-backend/server')).default;
  const server = new CubejsServer({
    schemaPath: path.relative(process.cwd(), path.join(here, 'model')) || 'model',
    sqlPort: undefined,
    pgSqlPort: undefined,
    logger: (msg, params) => {
      if (process.env.CUBE_CONTRACT_LOG) process.stderr.write(`${msg} ${JSON.stringify(params)}\n`);
    },
  });
  server.config.sqlPort = undefined;
  server.config.pgSqlPort = undefined;
  const { port } = await server.listen();
  process.stdout.write(`ready ${port}\n`);
  const stop = () => {
    server.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  process.exit(1);
});
