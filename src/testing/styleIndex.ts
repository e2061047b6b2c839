/**
 * The index of src/testing/jsdomEnvironment.ts: under which key a CSS rule is filed, so that an
 * element is matched only against rules that could apply to it. A rule whose selector's last
 * compound names a class can only match elements with that class (likewise an id, a tag); any
 * selector this file is unsure of is filed under null: checked against every element.
 */

/** Where a rule is looked up: "c:<class>", "i:<id>" or "t:<tag>", lower case; null: checked for every element. */
export type RuleKey = string | null;

const IDENT = /^-?[_a-zA-Z][\w-]*$/;

/** Splits `text` at `separator`s outside brackets, parentheses and strings. */
function splitTopLevel(text: string, isSeparator: (char: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth === 0 && isSeparator(char)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** What an element must have for the compound to match it; null when unsure. */
function compoundKey(compound: string): RuleKey {
  if (compound === '' || /[\\|]/.test(compound)) return null;
  // Only the compound's own simple selectors, not those inside :not(), :is() or [attributes].
  let outside = '';
  let depth = 0;
  let quote = '';
  for (const char of compound) {
    if (quote) {
      if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth === 0) outside += char;
    // Whatever was inside ends the simple selector before it.
    if (depth > 0 && outside.at(-1) !== ' ') outside += ' ';
  }
  const simple = outside.split(/(?=[.#:\s])/);
  const find = (prefix: string) => simple.find((part) => part.startsWith(prefix) && IDENT.test(part.slice(1)))?.slice(1);
  const className = find('.');
  if (className) return `c:${className.toLowerCase()}`;
  const id = find('#');
  if (id) return `i:${id.toLowerCase()}`;
  const tag = simple[0];
  return IDENT.test(tag) ? `t:${tag.toLowerCase()}` : null;
}

/** Keys under which a rule is filed: one per selector of its list; null when any is unsure. */
export function ruleKeys(selectorText: unknown): string[] | null {
  if (typeof selectorText !== 'string') return null;
  const keys: string[] = [];
  for (const selector of splitTopLevel(selectorText, (char) => char === ',')) {
    const compounds = splitTopLevel(selector.trim(), (char) => /[\s>+~]/.test(char)).filter(Boolean);
    const key = compoundKey(compounds.at(-1) ?? '');
    if (key === null) return null;
    keys.push(key);
  }
  return keys.length > 0 ? keys : null;
}
