/**
 * A prerendered card (app/prerender.tsx) as public/preferences.js leaves it on the page before the
 * app runs, with what the visitor did in it: the en-dark variant, its form's fields holding
 * `fields` (a radio button: `{ value, checked }`), the form marked when a submit was held back.
 * Removed by `removePrerenderedCards` (an afterEach).
 */
export function prerenderedCard(
  fields: Array<{ name: string; type: string; value: string; checked?: boolean }>,
  { submitted = false } = {},
): { variant: HTMLElement; inputs: Record<string, HTMLInputElement> } {
  document.documentElement.lang = 'en';
  document.documentElement.dataset.theme = 'dark';
  const variant = document.createElement('div');
  variant.setAttribute('data-prerender-variant', 'en-dark');
  const form = document.createElement('form');
  if (submitted) form.setAttribute('data-submit-requested', '');
  const inputs: Record<string, HTMLInputElement> = {};
  for (const { name, type, value, checked } of fields) {
    const input = document.createElement('input');
    input.name = name;
    input.type = type;
    input.value = value;
    if (checked !== undefined) input.checked = checked;
    form.append(input);
    inputs[type === 'radio' ? `${name}=${value}` : name] = input;
  }
  variant.append(form);
  document.body.append(variant);
  return { variant, inputs };
}

/** Removes what `prerenderedCard` added. */
export function removePrerenderedCards(): void {
  for (const card of Array.from(document.querySelectorAll('[data-prerender-variant]'))) card.remove();
}
