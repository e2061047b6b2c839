#!/usr/bin/env node
// Serves the built reference page of `npm run bench:bundle` as the console's server serves dist/web:
// the .br/.gz file beside each asset by Accept-Encoding (@fastify/static preCompressed), hashed assets
// immutable, the page itself no-cache, and the console's Cross-Origin-Opener-Policy. That header
// alone costs a cold load in a new tab ~150 ms on a 2-core machine (the browser cannot reuse the
// tab's first renderer process and starts another), so the reference pays it as the console does
// and the ratio compares the pages themselves.   node serve.js <folder> <port>
const Fastify = require('fastify');
const fastifyStatic = require('@fastify/static');

const [root, port] = process.argv.slice(2);
const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css)(\.(br|gz))?$/;

async function main() {
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, {
    root,
    index: ['index.html'],
    cacheControl: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('cross-origin-opener-policy', 'same-origin-allow-popups');
    },
  });
  await app.listen({ host: '127.0.0.1', port: Number(port) });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
