import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { screen } from '@testing-library/react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { RowActions } from '../components/RowActions';
import { renderWithProviders } from './renderWithProviders';
import type { Cascades } from './jsdomEnvironment';
import { ruleKeys } from './styleIndex';

jest.setTimeout(60_000);

/** Set by the environment: jsdom's cascade as this suite's window runs it, indexed and not. */
const cascades = (globalThis as unknown as Record<symbol, Cascades | undefined>)[Symbol.for('storyflow.jsdomCascades')];

describe('the style rules index', () => {
  test('files a rule under what its last compound requires, or checks it everywhere when unsure', () => {
    expect(ruleKeys('.css-1x-MuiButton-root:hover')).toEqual(['c:css-1x-muibutton-root']);
    expect(ruleKeys('.A:not(.b)')).toEqual(['c:a']);
    expect(ruleKeys('nav > ul .item')).toEqual(['c:item']);
    expect(ruleKeys('.a .b~li:nth-child(2n+1)')).toEqual(['t:li']);
    expect(ruleKeys('#Main, input[type="hidden"]')).toEqual(['i:main', 't:input']);
    expect(ruleKeys('[title="a]b"].c')).toEqual(['c:c']);
    for (const unsure of ['*', '[hidden]', ':focus', ':is(.a, .b)', 'svg|a', '.a\\:b', '.a >*', '', undefined]) {
      expect(ruleKeys(unsure)).toBeNull();
    }
  });
});

describe('the web suites environment', () => {
  test('indexes jsdom’s style rules', () => {
    expect(cascades).toBeDefined();
    expect(cascades?.indexed).not.toBe(cascades?.unindexed);
  });

  test('gives every element of a rendered screen the declarations jsdom’s own cascade gives it', async () => {
    const style = document.createElement('style');
    style.textContent = `
      .Shown, #named { visibility: hidden; pointer-events: none }
      section > .plain:not(.other) { display: none }
      [data-state="off"] span, li:nth-child(2n+1) { color: red }
      @media screen { .plain { overflow: auto } }
      @media print { .plain { display: block } }
      * { caret-color: blue }
    `;
    document.head.append(style);
    const { user } = renderWithProviders(
      <section data-state="off">
        <span className="plain shown" id="Named">
          plain
        </span>
        <ul>
          <li>one</li>
          <li>two</li>
        </ul>
        <RowActions name="Main" active activeProcesses={0} onToggle={jest.fn()} onEdit={jest.fn()} onDelete={jest.fn()}>
          <Button disabled>Listen</Button>
        </RowActions>
        <TextField label="Name" error helperText="Required" />
        <Accordion>
          <AccordionSummary>More</AccordionSummary>
          <AccordionDetails>Hidden until opened</AccordionDetails>
        </Accordion>
        <ConfirmDialog open title="Delete “Main”?" confirmLabel="Delete" onConfirm={jest.fn()} onClose={jest.fn()} />
      </section>,
    );
    // A tooltip open (Popper's styles) and the dialog's.
    await user.hover(screen.getByRole('button', { name: 'Edit Main', hidden: true }));
    await screen.findByRole('tooltip', { hidden: true });

    const elements = [...document.querySelectorAll('*')];
    expect(elements.length).toBeGreaterThan(40);
    const { indexed: fast, unindexed, implForWrapper } = cascades!;
    const declarations = (get: Cascades['indexed']) =>
      elements.map((element) => {
        const impl = implForWrapper(element);
        impl._ownerDocument._styleCache = null;
        return `${element.tagName}.${element.getAttribute('class') ?? ''}: ${get(impl).cssText}`;
      });
    const indexed = declarations(fast);
    expect(indexed).toEqual(declarations(unindexed));
    // The screen's own rules were read (not only inline styles).
    expect(indexed.filter((line) => line.includes('visibility: hidden')).length).toBeGreaterThan(0);
    expect(indexed.join('\n')).toContain('caret-color: blue');
  });
});
