import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { type LoadedRule, PolicyFileSchema } from './rules';

export type PolicyLoad = { ok: true; rules: LoadedRule[] } | { ok: false; error: string };

/** Paths of the two policy files a session reads. */
export function policyFiles(home: string, root: string): { user: string; project: string } {
  return { user: join(home, 'policy.json'), project: join(root, '.warden', 'policy.json') };
}

/**
 * Loads the user's and the project's policy files (either may be missing).
 * Contract: never throws; a broken file is an error naming the file and the field — never ignored.
 */
export async function loadPolicyRules(home: string, root: string): Promise<PolicyLoad> {
  const files = policyFiles(home, root);
  const rules: LoadedRule[] = [];
  for (const source of ['user', 'project'] as const) {
    const file = files[source];
    const loaded = await loadPolicyFile(file);
    if (!loaded.ok) return loaded;
    loaded.rules.forEach((rule, i) => rules.push({ ...rule, id: rule.id ?? `${source}#${i + 1}`, source, file }));
  }
  return { ok: true, rules };
}

async function loadPolicyFile(file: string): Promise<{ ok: true; rules: z.infer<typeof PolicyFileSchema>['rules'] } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, rules: [] };
    return { ok: false, error: `${file}: cannot be read (${(err as Error).message})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${file}: not valid JSON (${(err as Error).message})` };
  }
  const parsed = PolicyFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `${file}: ${describeZodError(parsed.error)}` };
  for (const [i, rule] of parsed.data.rules.entries()) {
    for (const [field, pattern] of Object.entries(rule.when?.regex ?? {})) {
      try {
        new RegExp(pattern);
      } catch {
        return { ok: false, error: `${file}: rules.${i}.when.regex.${field}: not a valid regular expression` };
      }
    }
  }
  return { ok: true, rules: parsed.data.rules };
}

/** `rules.2.decision: Invalid option: expected one of "allow"|"ask"|"deny"` — the field first. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
    .join('; ');
}
