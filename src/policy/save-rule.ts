import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { policyFiles } from './load-policy';
import { PolicyFileSchema, type PolicyRule, RuleSchema } from './rules';

/**
 * Appends a rule (a saved grant) to the project's or the user's policy file, keeping what is there.
 * Contract: never throws; refuses to touch a file that does not validate.
 */
export async function saveRule(
  root: string | undefined,
  home: string,
  target: 'project' | 'user',
  rule: PolicyRule,
): Promise<{ ok: true; file: string } | { ok: false; error: string }> {
  const files = policyFiles(home, root ?? '.');
  const file = target === 'project' ? files.project : files.user;
  try {
    const checked = RuleSchema.parse(rule);
    let current: { rules: PolicyRule[] } = { rules: [] };
    try {
      current = PolicyFileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        return { ok: false, error: `${file} is not a valid policy file; fix it before saving rules to it.` };
    }
    current.rules.push(checked);
    await mkdir(dirname(file), { recursive: true });
    const temp = `${file}.tmp-${process.pid}`;
    await writeFile(temp, `${JSON.stringify(current, null, 2)}\n`);
    await rename(temp, file);
    return { ok: true, file };
  } catch (err) {
    return { ok: false, error: `Saving the rule failed: ${(err as Error).message}` };
  }
}
