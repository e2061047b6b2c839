/**
 * The web suites' environment: jest's jsdom, with jsdom's style matching indexed.
 *
 * Where the web suites spent their time (a CPU profile of MusicPanel.test.tsx, 2026-11-28): a third
 * of it in `window.getComputedStyle`, called by Testing Library's role queries (accessible names,
 * hidden elements), by user-event before every click (`pointer-events`), by Popper under every
 * tooltip (scroll parents) and by MUI's Modal and Tabs. jsdom computes an element's style by
 * matching every CSS rule of the document against it, one by one (nwsapi), and forgets it at the
 * next change of the DOM; emotion has injected hundreds of MUI's rules by then, so each element
 * cost hundreds of selector matches.
 *
 * This environment gives jsdom the same cascade, found faster: each style sheet's rules are indexed
 * by what their selector's last compound requires (a class, an id or a tag), as browsers do, and an
 * element is matched only against the rules that could apply to it, still by jsdom's own matcher
 * and in document order. Same declarations, same values, same visibility: no assertion weakens.
 * src/testing/jsdomEnvironment.test.tsx compares the two on a rendered screen, element by element.
 *
 * It replaces one function of jsdom 26 (helpers/style-rules.js, getDeclarationForElement) and reads
 * its internals: an upgrade of jsdom that moves them fails loudly here or in that test. A rule's
 * keys are kept with the rule: a selector rewritten in place (`rule.selectorText = ...`, which
 * neither emotion nor MUI do) would keep its old ones; added or removed rules and sheets are seen.
 */
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
// Requires jsdom only when it builds a window, so after the change below.
import JsdomEnvironment from 'jest-environment-jsdom';
import { createRequire } from 'node:module';
import { ruleKeys } from './styleIndex';

const fromJsdom = createRequire(require.resolve('jsdom'));
const styleRules = fromJsdom('./jsdom/living/helpers/style-rules.js');
const { matchesDontThrow } = fromJsdom('./jsdom/living/helpers/selectors.js');
const defaultStyleSheet: string = fromJsdom('./jsdom/browser/default-stylesheet.js');
const { CSSStyleDeclaration } = fromJsdom('cssstyle');
const cssom = fromJsdom('rrweb-cssom');
const { implForWrapper } = fromJsdom('./jsdom/living/generated/utils.js');

/** The parts of jsdom's implementation objects this file reads. */
interface ElementImpl {
  _localName: string;
  _attached: boolean;
  _ownerDocument: DocumentImpl;
  style: StyleDeclaration;
  getAttributeNS(namespace: string | null, name: string): string | null;
}
interface DocumentImpl {
  _styleCache: WeakMap<ElementImpl, StyleDeclaration> | null;
  styleSheets: { _list: Sheet[] };
}
interface StyleDeclaration {
  length: number;
  [index: number]: string;
  getPropertyValue(property: string): string;
  getPropertyPriority(property: string): string;
  setProperty(property: string, value: string, priority?: string): void;
  removeProperty(property: string): void;
}
interface Rule {
  selectorText?: string;
  media?: ArrayLike<string>;
  cssRules?: Rule[];
  style: StyleDeclaration;
}
interface Sheet {
  cssRules: Rule[];
}

/** Every rule of a document's sheets in cascade order, filed by key. */
interface DocumentIndex {
  /** What it was built from: the sheets, each with its rule list, length and version. */
  sheets: { sheet: Sheet; rules: Rule[]; length: number; version: number }[];
  rules: Rule[];
  byKey: Map<string, number[]>;
  always: number[];
}

const documentIndexes = new WeakMap<DocumentImpl, DocumentIndex>();
const versions = new WeakMap<Sheet, number>();
const keysOfRule = new WeakMap<Rule, string[] | null>();

// A rule added to or removed from a sheet (emotion's `insertRule` when fast) files the rules again.
for (const method of ['insertRule', 'deleteRule'] as const) {
  const proto = cssom.CSSStyleSheet.prototype;
  const original = proto[method];
  proto[method] = function (this: Sheet, ...args: unknown[]) {
    versions.set(this, (versions.get(this) ?? 0) + 1);
    return original.apply(this, args);
  };
}

function isCurrent(index: DocumentIndex, sheets: Sheet[]): boolean {
  if (index.sheets.length !== sheets.length) return false;
  return index.sheets.every(
    (known, i) =>
      known.sheet === sheets[i] &&
      known.rules === sheets[i].cssRules &&
      known.length === sheets[i].cssRules.length &&
      known.version === (versions.get(sheets[i]) ?? 0),
  );
}

/** The rules jsdom reads, in its order: its default sheet, then the document's sheets. */
function indexOf(document: DocumentImpl): DocumentIndex {
  const sheets = [parsedDefaultStyleSheet(), ...document.styleSheets._list];
  const known = documentIndexes.get(document);
  if (known && isCurrent(known, sheets)) return known;
  const index: DocumentIndex = { sheets: [], rules: [], byKey: new Map(), always: [] };
  for (const sheet of sheets) {
    index.sheets.push({ sheet, rules: sheet.cssRules, length: sheet.cssRules.length, version: versions.get(sheet) ?? 0 });
    for (const rule of sheet.cssRules) {
      const position = index.rules.push(rule) - 1;
      if (!keysOfRule.has(rule)) {
        // A media rule's own rules are checked at every call, as jsdom does.
        keysOfRule.set(rule, rule.media ? null : ruleKeys(rule.selectorText));
      }
      const keys = keysOfRule.get(rule) ?? null;
      if (keys === null) {
        index.always.push(position);
        continue;
      }
      for (const key of new Set(keys)) {
        const list = index.byKey.get(key);
        if (list) list.push(position);
        else index.byKey.set(key, [position]);
      }
    }
  }
  documentIndexes.set(document, index);
  return index;
}

function elementKeys(element: ElementImpl): string[] {
  const keys = [`t:${element._localName.toLowerCase()}`];
  const id = element.getAttributeNS(null, 'id');
  if (id) keys.push(`i:${id.toLowerCase()}`);
  for (const name of (element.getAttributeNS(null, 'class') ?? '').split(/[\t\n\f\r ]+/)) {
    if (name) keys.push(`c:${name.toLowerCase()}`);
  }
  return keys;
}

const { forEach, indexOf: arrayIndexOf } = Array.prototype;

/** jsdom's forEachMatchingSheetRuleOfElement, asking only the rules that could match. */
function forEachMatchingRule(element: ElementImpl, handleRule: (rule: Rule) => void) {
  const index = indexOf(element._ownerDocument);
  const matches = (rule: Rule) => matchesDontThrow(element, rule.selectorText);
  const positions = [...index.always];
  for (const key of elementKeys(element)) {
    const filed = index.byKey.get(key);
    if (filed) for (const position of filed) positions.push(position);
  }
  positions.sort((a, b) => a - b);
  let last = -1;
  for (const position of positions) {
    if (position === last) continue;
    last = position;
    const rule = index.rules[position];
    if (rule.media) {
      if (arrayIndexOf.call(rule.media, 'screen') !== -1) {
        forEach.call(rule.cssRules, (inner: Rule) => {
          if (matches(inner)) handleRule(inner);
        });
      }
    } else if (matches(rule)) {
      handleRule(rule);
    }
  }
}

let defaultSheet: Sheet | undefined;
function parsedDefaultStyleSheet(): Sheet {
  defaultSheet ??= cssom.parse(defaultStyleSheet) as Sheet;
  return defaultSheet;
}

/** jsdom's getDeclarationForElement (jsdom 26, helpers/style-rules.js), with the indexed rules. */
function getDeclarationForElement(element: ElementImpl): StyleDeclaration {
  const document = element._ownerDocument;
  document._styleCache ??= new WeakMap();
  const cached = document._styleCache.get(element);
  if (cached) return cached;

  const declaration: StyleDeclaration = new CSSStyleDeclaration();
  const handleProperty = (style: StyleDeclaration, property: string) => {
    const value = style.getPropertyValue(property);
    if (value === 'unset') declaration.removeProperty(property);
    else declaration.setProperty(property, value, style.getPropertyPriority(property));
  };
  forEachMatchingRule(element, (rule) => forEach.call(rule.style, (property: string) => handleProperty(rule.style, property)));
  forEach.call(element.style, (property: string) => handleProperty(element.style, property));

  document._styleCache.set(element, declaration);
  return declaration;
}

// Window.js takes getDeclarationForElement when it is first loaded; getResolvedValue looks it up at
// every call. Too late if jsdom's window was loaded already: then say so rather than run slowly.
const windowModule = fromJsdom.resolve('./jsdom/browser/Window.js');
if (typeof styleRules.getDeclarationForElement !== 'function' || typeof matchesDontThrow !== 'function') {
  throw new Error('src/testing/jsdomEnvironment.ts was written for jsdom 26: its style helpers moved.');
}
if (!styleRules.indexed && require.cache[windowModule]) {
  throw new Error("jsdom's window was loaded before src/testing/jsdomEnvironment.ts could index its style rules.");
}
const unindexedGetDeclarationForElement: typeof getDeclarationForElement = styleRules.indexed
  ? styleRules.unindexedGetDeclarationForElement
  : styleRules.getDeclarationForElement;
styleRules.unindexedGetDeclarationForElement = unindexedGetDeclarationForElement;
styleRules.getDeclarationForElement = getDeclarationForElement;
styleRules.indexed = true;

/** Where src/testing/jsdomEnvironment.test.tsx finds both cascades (its own require sees a copy of jsdom). */
export const CASCADES = Symbol.for('storyflow.jsdomCascades');

export interface Cascades {
  indexed: (element: unknown) => { cssText: string };
  unindexed: (element: unknown) => { cssText: string };
  /** jsdom's implementation object of a DOM node. */
  implForWrapper: (node: Node) => { _ownerDocument: { _styleCache: unknown } };
}

export default class IndexedStylesEnvironment extends JsdomEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const cascades: Cascades = {
      indexed: getDeclarationForElement as unknown as Cascades['indexed'],
      unindexed: unindexedGetDeclarationForElement as unknown as Cascades['unindexed'],
      implForWrapper,
    };
    Object.defineProperty(this.global, CASCADES, { value: cascades });
  }
}
