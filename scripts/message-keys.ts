/**
 * `npm run i18n:keys`: writes server/src/messageKeys.gen.ts (the server's message key type) from
 * locales/en/server.json. `-- --check` only compares, and exits 1 when the file is out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MESSAGE_KEYS_FILE, messageKeysSource } from '../server/tools/messageKeys';

const source = messageKeysSource();
const current = fs.existsSync(MESSAGE_KEYS_FILE) ? fs.readFileSync(MESSAGE_KEYS_FILE, 'utf8') : '';
const name = path.relative(process.cwd(), MESSAGE_KEYS_FILE);
if (process.argv.includes('--check')) {
  if (current !== source) {
    console.error(`${name} is out of date: run npm run i18n:keys`);
    process.exitCode = 1;
  } else console.log('message keys are up to date');
} else if (current === source) console.log('message keys unchanged');
else {
  fs.writeFileSync(MESSAGE_KEYS_FILE, source);
  console.log(`wrote ${name}`);
}
