/**
 * `npm run api:types`: writes src/api/openapi.gen.ts from the API's OpenAPI document (the route
 * schemas). `-- --check` only compares, and exits 1 when the committed file is out of date.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db';
import { memoryMailer } from '../server/src/providers/mailer';
import { API_TYPES_FILE, apiTypesSource } from '../server/tools/apiTypes';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-types-'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIR: path.join(dataDir, 'no-web') });
  const app = await buildApp({ config, database, mailer: memoryMailer(), logger: false, enqueue: async () => null });
  try {
    const source = await apiTypesSource(app);
    const current = fs.existsSync(API_TYPES_FILE) ? fs.readFileSync(API_TYPES_FILE, 'utf8') : '';
    if (check) {
      if (current !== source) {
        console.error(`${path.relative(process.cwd(), API_TYPES_FILE)} is out of date: run npm run api:types`);
        process.exitCode = 1;
      } else console.log('API types are up to date');
    } else if (current === source) {
      console.log('API types unchanged');
    } else {
      fs.writeFileSync(API_TYPES_FILE, source);
      console.log(`wrote ${path.relative(process.cwd(), API_TYPES_FILE)}`);
    }
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
