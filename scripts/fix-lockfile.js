#!/usr/bin/env node
// The npm registry reachable from our machines serves only Linux builds of some platform-specific
// optional packages (unrs-resolver's bindings, used by jest). `npm install` then leaves them out of
// package-lock.json, and `npm ci` refuses the lock file ("Missing: ... from lock file"). This adds
// an entry for each missing optional platform package, with the os/cpu read from its name, so
// `npm ci` on Linux skips them as it would with a complete lock file.
// Run it after every `npm install` that changes package-lock.json.
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = { x64: 'x64', arm64: 'arm64', arm: 'arm', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return undefined;
  const libc = parts.includes('musl') || parts.includes('musleabihf') ? 'musl' : parts.includes('gnu') || parts.includes('gnueabihf') ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  if (!meta.optionalDependencies) continue;
  const base = location === '' ? '' : `${location}/`;
  for (const [name, version] of Object.entries(meta.optionalDependencies)) {
    const nested = `${base}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) {
      console.warn(`fix-lockfile: ${name}@${version} (optional dependency of ${location || 'the root'}) is missing and was left alone`);
      continue;
    }
    packages[hoisted] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: [platform.libc] } : {}),
    };
    added += 1;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
}
console.log(`fix-lockfile: added ${added} missing optional platform package(s)`);
