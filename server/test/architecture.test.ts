/**
 * The server's import rules (docs/server.md, "Layout"): no import cycles, and nothing imports a room
 * above its own. Every import of server/src is read with TypeScript's own scanner
 * (`ts.preProcessFile`: static imports, re-exports, `import type`, `import()` and `require()`).
 *
 * The rooms, top to bottom. A file may import its own room, a peer room of the same rank, and any
 * room below; never a room above. Commands outside src (scripts/, server/tools/) and tests may
 * import anything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = resolve(__dirname, '..', 'src');

interface Room {
  name: string;
  rank: number;
  /** Paths below server/src: a file (`app.ts`) or a folder (`routes/`). */
  paths: string[];
}

const ROOMS: Room[] = [
  // Processes start here: the API server and `npm run worker`.
  { name: 'entry points', rank: 0, paths: ['server.ts', 'worker/main.ts'] },
  // Commands: `npm run backup` and `npm run restore` (scripts/ runs them), entry points too.
  { name: 'backup command', rank: 0, paths: ['backup/'] },
  // HTTP: the Fastify instance and its routes.
  { name: 'app', rank: 1, paths: ['app.ts', 'routes/'] },
  // The queue's workers (runs, tick, recovery, housekeeping, deliveries) and the worker's health port.
  { name: 'worker', rank: 1, paths: ['worker/'] },
  // The execution engine: runs, leases, the steps.
  { name: 'pipeline', rank: 2, paths: ['pipeline/'] },
  // The rules, per resource.
  { name: 'services', rank: 3, paths: ['services/'] },
  // Outside services, the ffmpeg toolkit, the job queue: peers.
  { name: 'providers', rank: 4, paths: ['providers/'] },
  { name: 'media', rank: 4, paths: ['media/'] },
  { name: 'queue', rank: 4, paths: ['queue.ts'] },
  // Every setting, validated once.
  { name: 'config', rank: 5, paths: ['config.ts'] },
  // Helpers that know no setting, and the database: peers (backups read the database). Beside them,
  // the API's shapes: the JSON schemas routes validate with and services derive their types from.
  { name: 'lib', rank: 6, paths: ['lib/'] },
  { name: 'db', rank: 6, paths: ['db/'] },
  { name: 'contracts', rank: 6, paths: ['contracts/'] },
  // Leaves: job names and payloads, a run's steps and files, the error type, the message catalogue and its generated keys.
  { name: 'jobs', rank: 7, paths: ['jobs.ts'] },
  { name: 'run layout', rank: 7, paths: ['runLayout.ts'] },
  { name: 'errors', rank: 7, paths: ['errors.ts'] },
  { name: 'messages', rank: 7, paths: ['messages.ts', 'messageKeys.gen.ts'] },
];

/**
 * Imports that break the rules today, each to be removed (an entry here is a debt, not a rule).
 * Written `from -> to`, both below server/src.
 */
const KNOWN_EXCEPTIONS: string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A path below server/src, with forward slashes. */
function below(file: string): string {
  return relative(SRC, file).split(/[\\/]/).join('/');
}

function roomOf(file: string): Room | undefined {
  const path = below(file);
  return ROOMS.find((room) => room.paths.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry)));
}

/** The file a relative specifier names (`./x`, `./x.js`, `./dir` for `./dir/index.ts`), or undefined. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

interface Edge {
  from: string;
  to: string;
}

function readImports(files: string[]): { edges: Edge[]; unresolved: string[] } {
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSpecifier(file, fileName);
      if (!target) unresolved.push(`${below(file)}: ${fileName}`);
      else if (target.startsWith(SRC + '/') && target.endsWith('.ts')) edges.push({ from: below(file), to: below(target) });
    }
  }
  return { edges, unresolved };
}

/** The import cycles: every strongly connected group of files (Tarjan), sorted, as `a -> b -> ... `. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  function visit(node: string): void {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (next.get(node) ?? []).includes(node)) found.push(group.sort());
    }
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('server import rules', () => {
  const files = sourceFiles(SRC);
  const { edges, unresolved } = readImports(files);

  it('finds the code it checks, and every relative import resolves', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(300);
    expect(unresolved).toEqual([]);
  });

  it('gives every file of server/src a room', () => {
    expect(files.filter((file) => !roomOf(file)).map(below)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('imports nothing from a room above', () => {
    const upward = edges
      .filter(({ from, to }) => {
        const source = roomOf(join(SRC, from));
        const target = roomOf(join(SRC, to));
        return source && target && target.rank < source.rank;
      })
      .map(({ from, to }) => `${from} -> ${to} (${roomOf(join(SRC, from))!.name} imports ${roomOf(join(SRC, to))!.name})`);
    expect(upward.filter((edge) => !KNOWN_EXCEPTIONS.some((known) => edge.startsWith(`${known} `)))).toEqual([]);
  });

  it('lists only exceptions that still exist', () => {
    const present = new Set(edges.map(({ from, to }) => `${from} -> ${to}`));
    expect(KNOWN_EXCEPTIONS.filter((known) => !present.has(known))).toEqual([]);
  });

  it('catches a cycle and an upward import (the checker itself)', () => {
    expect(
      cycles([
        { from: 'a.ts', to: 'b.ts' },
        { from: 'b.ts', to: 'c.ts' },
        { from: 'c.ts', to: 'a.ts' },
      ]),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cycles([{ from: 'a.ts', to: 'b.ts' }])).toEqual([]);
    expect(roomOf(join(SRC, 'services/processes.ts'))!.rank).toBeGreaterThan(
      roomOf(join(SRC, 'routes/processes/index.ts'))!.rank,
    );
    const { importedFiles } = ts.preProcessFile(
      "import type { A } from './a';\nexport { B } from './b';\nconst c = import('./c');",
      true,
      true,
    );
    expect(importedFiles.map(({ fileName }) => fileName)).toEqual(['./a', './b', './c']);
  });
});
