import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** WCAG 2 contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const tokens = read('../../../styles/tokens.css');
const token = (name: string) => {
  const match = new RegExp(`${name}:\\s*(#[0-9a-fA-F]{6})`).exec(tokens);
  if (!match?.[1]) throw new Error(`no token ${name}`);
  return match[1];
};
/** The colour of a rule in plan-card.css, resolved through the tokens. */
function ruleColor(selector: string): string {
  const css = read('./plan-card.css');
  const body = new RegExp(`${selector.replace('.', '\\.')}\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? '';
  const value = /(?:^|\n)\s*color:\s*([^;]+);/.exec(body)?.[1]?.trim() ?? '';
  const variable = /var\((--[\w-]+)\)/.exec(value)?.[1];
  return variable ? token(variable) : value;
}

describe('plan cards meet WCAG AA contrast (4.5:1 for small text)', () => {
  it.each(['--color-surface', '--color-primary-soft', '--color-surface-muted'])(
    '"Billed monthly" on %s',
    (background) => {
      const ratio = contrast(ruleColor('.plan-card__billed'), token(background));
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('the old colour really failed on the current plan card (the check can tell)', () => {
    expect(contrast(token('--color-text-subtle'), token('--color-primary-soft'))).toBeLessThan(4.5);
  });
});
