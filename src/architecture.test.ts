/**
 * The web app's import rules (docs/web.md, "Layout"): app -> features -> (api, components, lib).
 * A feature never imports another feature; components and lib import no feature, no api and
 * no app; api imports no feature and no app.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Top-level area of a file below src/: "app", "api", "components", "lib", "testing" or "features/<x>". */
function area(file: string): string {
  const [top, second] = relative(SRC, file).split(/[\\/]/);
  return top === 'features' ? `features/${second}` : top;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s+|import\s*\(\s*(?:\/\*.*?\*\/\s*)?)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (match) => match[1],
  );
  return specifiers.map((specifier) => resolve(dirname(file), specifier)).filter((target) => target.startsWith(SRC));
}

const RULES: Record<string, (target: string) => boolean> = {
  api: (target) => ['api', 'lib'].includes(target),
  components: (target) => ['components', 'lib'].includes(target),
  lib: (target) => target === 'lib',
};

describe('import rules', () => {
  const files = sourceFiles(SRC).filter((file) => area(file) !== 'testing' && file !== join(SRC, 'index.tsx'));
  const edges = files.flatMap((file) =>
    imports(file).map((target) => ({ from: area(file), to: area(target), file: relative(SRC, file) })),
  );

  it('finds the code it checks', () => {
    expect(edges.length).toBeGreaterThan(20);
  });

  it('keeps features apart, and shared code free of features, api and app', () => {
    const broken = edges.filter(({ from, to }) => {
      if (from === to) return false;
      if (from.startsWith('features/')) return to.startsWith('features/') || to === 'app';
      const rule = RULES[from];
      return rule ? !rule(to) : false;
    });
    expect(broken).toEqual([]);
  });
});
