import fs from 'node:fs';
import { API_TYPES_FILE, apiTypesSource } from '../tools/apiTypes';
import { buildTestApp, type TestContext } from './helper';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx.close();
});

// The contract-drift check: the web app's generated API types are those of today's route schemas
// (src/api/contract.ts then checks the hand-written types against them at compile time).
test('src/api/openapi.gen.ts is generated from the routes as they are (else: npm run api:types)', async () => {
  const expected = await apiTypesSource(ctx.app);
  const committed = fs.readFileSync(API_TYPES_FILE, 'utf8');
  if (committed !== expected) {
    throw new Error('src/api/openapi.gen.ts is out of date with the route schemas: run `npm run api:types` and commit it');
  }
  expect(committed).toContain('"/api/v1/processes/{id}/execute"');
}, 60_000);
