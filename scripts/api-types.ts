/**
 * `npm run api:types`: writes src/api/openapi.gen.ts (the types) and src/lib/apiEnums.gen.ts (the
 * enumerations' values) from the API's OpenAPI document (the route schemas). `-- --check` only
 * compares, and exits 1 when a committed file is out of date.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db';
import { memoryMailer } from '../server/src/providers/mailer';
import { API_ENUMS_FILE, API_TYPES_FILE, apiEnumsSource, apiTypesSource } from '../server/tools/apiTypes';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-types-'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIR: path.join(dataDir, 'no-web') });
  const app = await buildApp({ config, database, mailer: memoryMailer(), logger: false, enqueue: async () => null });
  try {
    for (const [file, source] of [
      [API_TYPES_FILE, await apiTypesSource(app)],
      [API_ENUMS_FILE, await apiEnumsSource(app)],
    ] as const) {
      const name = path.relative(process.cwd(), file);
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (check) {
        if (current !== source) {
          console.error(`${name} is out of date: run npm run api:types`);
          process.exitCode = 1;
        } else console.log(`${name} is up to date`);
      } else if (current === source) {
        console.log(`${name} unchanged`);
      } else {
        fs.writeFileSync(file, source);
        console.log(`wrote ${name}`);
      }
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
