import { formatBRL, formatUSD } from './money';

const nbsp = '\u00a0';

describe('money', () => {
  it('formats plan prices as R$ with comma decimals', () => {
    expect(formatBRL(49.9)).toBe(`R$${nbsp}49,90`);
    expect(formatBRL(160.9)).toBe(`R$${nbsp}160,90`);
  });

  it('formats whole-dollar sign-up prices in the interface locale', () => {
    expect(formatUSD(29)).toBe('$29');
    expect(formatUSD(278, 'en-US')).toBe('$278');
    expect(formatUSD(278, 'pt-BR')).toBe(`US$${nbsp}278`);
    expect(formatUSD(29.5)).toBe('$29.50');
  });
});
