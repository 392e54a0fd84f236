import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configTable, generatedFiles, withTable } from '../../src/config/config-docs';
import { parseConfigText } from '../../src/config/read-file';
import { parsePolicyText } from '../../src/policy/load-policy';

const repo = join(__dirname, '..', '..');

describe('what is generated from the config schemas', () => {
  it.each(generatedFiles().map((f) => [f.path, f] as const))('%s is current', (path, file) => {
    const text = readFileSync(join(repo, path), 'utf8');
    // Stale: run `npx tsx scripts/config-docs.ts`.
    expect(text).toBe(file.render(text));
  });

  it('has a row for every field of config.json, with its default', () => {
    const table = configTable();
    for (const key of ['model', 'approvalTimeoutSec', 'streamIdleTimeoutSec', 'escalation', 'notify'])
      expect(table).toContain(`\`${key}\``);
    expect(table).toMatch(/\| `streamIdleTimeoutSec` \| config \| 120 \|/);
    expect(table).toMatch(
      /\| `WARDEN_MODEL` \/ `model` \/ `--model` \| env, config, flag \| `gpt-4.1-mini` \|/,
    );
  });

  it('replaces only what lies between the markers, and refuses a README without them', () => {
    const begin =
      '<!-- config-table:begin (generated from src/config/schema.ts: npx tsx scripts/config-docs.ts) -->';
    const readme = `# r\n${begin}\nold\n<!-- config-table:end -->\nafter\n`;
    expect(withTable(readme, 'new')).toBe(`# r\n${begin}\nnew\n<!-- config-table:end -->\nafter\n`);
    expect(() => withTable('no markers here', 'new')).toThrow(/markers/);
  });

  it('ships schemas that name every field, and files that name them in $schema load', () => {
    const config = JSON.parse(readFileSync(join(repo, 'assets/schema/config.schema.json'), 'utf8'));
    expect(Object.keys(config.properties)).toContain('$schema');
    expect(config.properties.streamIdleTimeoutSec.default).toBe(120);
    expect(config.additionalProperties).toBe(false);
    const read = parseConfigText(
      '/p/config.json',
      JSON.stringify({ $schema: '../assets/schema/config.schema.json', mode: 'plan' }),
    );
    expect(read).toEqual({
      kind: 'ok',
      file: { $schema: '../assets/schema/config.schema.json', mode: 'plan' },
    });
    const policy = JSON.parse(readFileSync(join(repo, 'assets/schema/policy.schema.json'), 'utf8'));
    expect(Object.keys(policy.properties)).toEqual(['$schema', 'rules']);
    const rules = parsePolicyText(
      '/p/policy.json',
      JSON.stringify({ $schema: 'x.json', rules: [{ tool: 'read_file', decision: 'allow' }] }),
      'user',
    );
    expect(rules.ok && rules.rules.map((r) => r.tool)).toEqual(['read_file']);
  });
});
