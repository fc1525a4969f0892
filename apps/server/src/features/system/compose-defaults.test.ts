import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, publicHostProblem } from '../../config.ts';

const root = new URL('../../../../../', import.meta.url);

/**
 * The environment compose.yaml gives each instance when .env sets nothing: every `${NAME:-default}` at its
 * default, plus the Dockerfile's HOST (the instances listen on every interface).
 */
function composeDefaults(): Record<string, string> {
  const text = readFileSync(new URL('compose.yaml', root), 'utf8');
  const block = /\n {2}environment:\n((?: {4}.*\n)+)/.exec(text)?.[1];
  if (!block) throw new Error('no environment block in compose.yaml');
  const env: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const match = /^ {4}([A-Z_]+): (.*)$/.exec(line);
    if (!match) continue;
    const [, name, raw] = match as unknown as [string, string, string];
    const value = raw.trim().replace(/^"(.*)"$/, '$1');
    env[name] = value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
  }
  const host = /ENV .*\bHOST=(\S+)/.exec(readFileSync(new URL('Dockerfile', root), 'utf8'))?.[1];
  return { ...env, HOST: host ?? '' };
}

describe('compose.yaml defaults (issue 24)', () => {
  it('opens neither the local tools nor /metrics unless .env chooses to', () => {
    const env = composeDefaults();
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.LOCAL_TOOLS).toBe('');
    expect(env.METRICS_TOKEN).toBe('');
    const config = loadConfig(env);
    expect(config.localTools).toBe('closed');
    expect(config.metricsToken).toBeUndefined();
    // Without providers and without LOCAL_TOOLS=admin, an instance refuses to start and says what to set.
    expect(publicHostProblem(config)).toMatch(/Refusing to start.*LOCAL_TOOLS=admin/);
    // The explicit choices still work.
    const chosen = loadConfig({ ...env, LOCAL_TOOLS: 'admin', METRICS_TOKEN: 'a'.repeat(32) });
    expect(chosen.localTools).toBe('admin');
    expect(publicHostProblem(chosen)).toBeUndefined();
  });
});
