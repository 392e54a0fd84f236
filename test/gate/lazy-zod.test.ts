import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// Counts loads of zod: declaring schemas (importing the config, the tools, the policy) must not load
// it (issue 16); the first validation does, and validates exactly as the schema says.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/zod-runtime', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/zod-runtime')>();
  return {
    zodRuntime: () => {
      loads.count++;
      return real.zodRuntime();
    },
  };
});

const { loadConfig } = await import('../../src/config/load');
const { ConfigFileSchema } = await import('../../src/config/schema');
const { createCoreTools } = await import('../../src/tools');
const { PolicyFileSchema } = await import('../../src/policy/rules');
const { lazySchema, realSchema } = await import('../../src/lazy-zod');

describe('zod schemas are built on first use', () => {
  it('importing the config, tools and policy, and a config from the environment, load no zod', () => {
    const tools = createCoreTools();
    expect(tools.length).toBeGreaterThan(5);
    const loaded = loadConfig({
      home: mkdtempSync(join(tmpdir(), 'warden-lazy-zod-home-')),
      root: mkdtempSync(join(tmpdir(), 'warden-lazy-zod-root-')),
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', WARDEN_MODE: 'auto-edit' },
      flags: {},
      trustProject: false,
    });
    expect(loaded).toMatchObject({
      ok: true,
      config: { mode: 'auto-edit', baseUrl: 'http://127.0.0.1:9/v1' },
    });
    expect(loads.count).toBe(0);
  });

  it('the first validation builds the schema, as strict as declared', () => {
    expect(ConfigFileSchema.safeParse({ approvalTimeoutSec: 'soon' }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ nope: 1 }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ approvalTimeoutSec: 30 }).success).toBe(true);
    expect(PolicyFileSchema.safeParse({ rules: [{ tool: 'x', decision: 'perhaps' }] }).success).toBe(false);
    expect(loads.count).toBeGreaterThan(0);
  });

  it('a lazy schema is built once, and realSchema gives that object', () => {
    let builds = 0;
    const schema = lazySchema((z) => {
      builds++;
      return z.strictObject({ a: z.string() });
    });
    expect(builds).toBe(0);
    const real = realSchema(schema);
    expect(realSchema(schema)).toBe(real);
    expect(schema.shape).toBe(real.shape);
    expect(schema.safeParse({ a: 'x' }).success).toBe(true);
    expect(schema.safeParse({ a: 'x', b: 1 }).success).toBe(false);
    expect(builds).toBe(1);
  });
});
