import fs from 'node:fs';
import { API_ENUMS_FILE, API_TYPES_FILE, apiEnumsSource, apiTypesSource } from '../tools/apiTypes';
import { buildTestApp, type TestContext } from './helper';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx.close();
});

// The contract-drift check: the web app's generated API types are those of today's route schemas
// (the web app's hand-written names for them then compile against them), and the enumerations'
// values the web app lists are those of the server's contracts.
test('src/api/openapi.gen.ts is generated from the routes as they are (else: npm run api:types)', async () => {
  const expected = await apiTypesSource(ctx.app);
  const committed = fs.readFileSync(API_TYPES_FILE, 'utf8');
  if (committed !== expected) {
    throw new Error('src/api/openapi.gen.ts is out of date with the route schemas: run `npm run api:types` and commit it');
  }
  expect(committed).toContain('"/api/v1/processes/{id}/execute"');
}, 60_000);

test('src/lib/apiEnums.gen.ts holds the enumerations of the routes as they are (else: npm run api:types)', async () => {
  const expected = await apiEnumsSource(ctx.app);
  const committed = fs.readFileSync(API_ENUMS_FILE, 'utf8');
  if (committed !== expected) {
    throw new Error('src/lib/apiEnums.gen.ts is out of date with the route schemas: run `npm run api:types` and commit it');
  }
  expect(committed).toContain('export const LANGUAGE_CODES = ["pt","en",');
}, 60_000);
