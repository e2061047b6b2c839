import fs from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const file = process.env.TEST_PGLITE_TEMPLATE;
  if (file && fs.existsSync(file)) fs.rmSync(file);
}
