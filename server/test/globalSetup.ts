import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db';
import { startQueue } from '../src/queue';
import { TEMPLATE_DB_NAME, adminUrl } from './postgres';

/**
 * Builds a migrated template database once per run: a PGlite data-folder dump that each test
 * file clones in memory, or, when DATABASE_URL is set, a PostgreSQL template database.
 */
export default async function globalSetup(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB_NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB_NAME}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${TEMPLATE_DB_NAME}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    const queue = await startQueue(database, { supervise: false });
    await queue.stop();
    await database.close();
    return;
  }
  const database = await openDatabase({});
  const queue = await startQueue(database, { supervise: false });
  await queue.stop();
  const dump = await database.dumpDataDir!();
  await database.close();
  const file = path.join(os.tmpdir(), `svc-test-template-${process.pid}.tar.gz`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.TEST_PGLITE_TEMPLATE = file;
}
