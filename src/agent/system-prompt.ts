import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetsDir } from '../assets';
import type { Mode } from '../protocol';

const AGENTS_MD_LIMIT = 8000;

const MODE_NOTES: Record<Mode, string> = {
  manual: 'manual (every change is approved by a person)',
  'auto-edit': 'auto-edit (file writes inside the project run without asking; commands still ask)',
  plan: 'plan — read-only. Investigate and propose a plan; every change will be blocked',
  auto: 'auto (most calls run without asking; high-risk ones still ask)',
};

let template: string | undefined;

/** The system prompt: how the gate works, which tool fits which job, the mode, and AGENTS.md. */
export function systemPrompt(options: { root: string; mode: Mode; agentsMd?: string; subAgent?: { name: string } }): string {
  template ??= readFileSync(join(assetsDir(), 'system-prompt.md'), 'utf8');
  let text = template.replace('{{root}}', options.root).replace('{{mode}}', MODE_NOTES[options.mode]);
  if (options.subAgent) {
    text += `\nYou are the sub-agent "${options.subAgent.name}". Do only the task you were given, then end with a short report: what you changed, what you ran, what failed.`;
  }
  if (options.agentsMd?.trim()) text += `\n\nThe project's AGENTS.md:\n${options.agentsMd.slice(0, AGENTS_MD_LIMIT)}`;
  return text;
}

/** Reads AGENTS.md at the project root, if there is one. */
export function readAgentsMd(root: string): string | undefined {
  try {
    return readFileSync(join(root, 'AGENTS.md'), 'utf8');
  } catch {
    return undefined;
  }
}
