import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/gate/specs';
import { createCoreTools } from '../../src/tools';
import { createAskUserTool } from '../../src/tools/interact/ask-user';
import { createEscalateTool } from '../../src/tools/interact/escalate';
import { createProposePlanTool } from '../../src/tools/interact/propose-plan';
import { createRevertTurnTool } from '../../src/tools/interact/revert-turn';
import { createSpawnAgentsTool } from '../../src/tools/interact/spawn-agents';
import { createUpdatePlanTool } from '../../src/tools/interact/update-plan';
import type { AnyTool } from '../../src/tools/types';
import { createWebTools } from '../../src/tools/web/web-search';

/** Every built-in tool, as a session offers them (with a web-search provider, so it is offered too). */
export function allBuiltinTools(): AnyTool[] {
  const reverter = { revertTurn: async () => ({ ok: false as const, error: 'unused' }) };
  return [
    ...createCoreTools('/nonexistent-warden-home'),
    ...createWebTools({ search: { kind: 'searxng', url: 'http://127.0.0.1:9/search' } }),
    createSpawnAgentsTool(),
    createProposePlanTool(),
    createUpdatePlanTool(),
    createAskUserTool(),
    createEscalateTool(),
    createRevertTurnTool(reverter as unknown as Parameters<typeof createRevertTurnTool>[0]),
  ];
}

const FIXTURE = join(import.meta.dirname, 'fixtures', 'tool-specs.json');

describe('the tool schemas the model is offered', () => {
  // The JSON Schemas come from zod, which loads on first use (issue 16): the request body must not change.
  it('are byte for byte those of the fixture (zod schemas built lazily change nothing)', () => {
    const json = `${JSON.stringify(toolSpecs(allBuiltinTools()), null, 2)}\n`;
    expect(json).toBe(readFileSync(FIXTURE, 'utf8'));
  });
});
