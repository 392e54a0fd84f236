import { join } from 'node:path';
import type { z } from 'zod';
import { type ProjectSnapshot, readProjectSnapshot } from './project-files';
import { readRegularFile } from './safe-read';
import { compileBoundedGlob } from './bounded-glob';
import { type CompiledPattern, compileBoundedRegex } from './bounded-regex';
import { type LoadedRule, PolicyFileSchema, type PolicyRule } from './rules';

/**
 * `rules`: the rules in force, the managed policy's first. `held`: the project's allow rules, kept
 * back until the person trusts the project's files (ask and deny rules always count: tightening is
 * always welcome). `ignored`: the user's and the project's rules when the managed config allows
 * managed rules only.
 */
export type PolicyLoad =
  | { ok: true; rules: LoadedRule[]; held: LoadedRule[]; ignored: LoadedRule[] }
  | { ok: false; error: string };

/** The managed policy to load: its folder's `policy.json`, and whether only its rules count. */
export type ManagedPolicy = { dir: string; rulesOnly: boolean };

export type LoadPolicyOptions = {
  /** The project's files as already read (so the text trusted is the text loaded); read now when absent. */
  project?: ProjectSnapshot;
  /** Whether the person trusts exactly this snapshot; untrusted (the default) holds allow rules back. */
  trusted?: boolean;
  /** The managed layer (src/config/managed.ts says what it is); absent: no managed rules. */
  managed?: ManagedPolicy;
};

const USER_FILE_CAP = 1024 * 1024;

/** Paths of the two policy files a session reads. */
export function policyFiles(home: string, root: string): { user: string; project: string } {
  return { user: join(home, 'policy.json'), project: join(root, '.warden', 'policy.json') };
}

/**
 * Loads the managed, the user's and the project's policy files (any may be missing). The project's
 * allow rules count only when `trusted`; otherwise they come back in `held`. With `rulesOnly` the
 * user's and the project's rules come back in `ignored` instead.
 * Contract: never throws; a broken file is an error naming the file and the field — never ignored
 * (a managed one above all: ignoring it would loosen what it forbids).
 */
export async function loadPolicyRules(
  home: string,
  root: string,
  options: LoadPolicyOptions = {},
): Promise<PolicyLoad> {
  return loadPolicyRulesSync(home, root, options);
}

/** `loadPolicyRules` without the promise: the files are small and read synchronously anyway. Contract: never throws. */
export function loadPolicyRulesSync(home: string, root: string, options: LoadPolicyOptions = {}): PolicyLoad {
  const managed = options.managed
    ? readPolicyFile(join(options.managed.dir, 'policy.json'), 'managed')
    : { ok: true as const, rules: [] };
  if (!managed.ok) return managed;
  const userRules = readPolicyFile(policyFiles(home, root).user, 'user');
  if (!userRules.ok) return userRules;

  const snapshot = options.project ?? readProjectSnapshot(root, home);
  const file = snapshot.policy;
  if (file.kind === 'error') return { ok: false, error: file.error };
  const projectRules =
    file.kind === 'ok' ? parsePolicyText(file.path, file.text, 'project') : { ok: true as const, rules: [] };
  if (!projectRules.ok) return projectRules;
  if (options.managed?.rulesOnly)
    return { ok: true, rules: managed.rules, held: [], ignored: [...userRules.rules, ...projectRules.rules] };
  const held = options.trusted ? [] : projectRules.rules.filter(loosens);
  return {
    ok: true,
    // The managed rules first: of two rules as strict, the first decides, so a user's ask never
    // stands in for a managed ask (which no grant may cover).
    rules: [...managed.rules, ...userRules.rules, ...projectRules.rules.filter((r) => !held.includes(r))],
    held,
    ignored: [],
  };
}

/** One policy file of warden's own (the user's, the managed one) read and parsed; missing is no rules. */
function readPolicyFile(
  path: string,
  source: 'user' | 'managed',
): { ok: true; rules: LoadedRule[] } | { ok: false; error: string } {
  const read = readRegularFile(path, USER_FILE_CAP);
  if (read.kind === 'refused') return { ok: false, error: `${path}: cannot be read (${read.reason})` };
  if (read.kind === 'missing') return { ok: true, rules: [] };
  if (read.truncated) return { ok: false, error: `${path}: larger than ${USER_FILE_CAP / 1024} KB` };
  return parsePolicyText(path, read.text, source);
}

/** Whether a project rule would loosen the gate (an allow); ask and deny only tighten. */
export function loosens(rule: Pick<PolicyRule, 'decision'>): boolean {
  return rule.decision === 'allow';
}

/**
 * Parses one policy file's text into rules with ids (`project#3` when the file gives none),
 * source and file. Every pattern is compiled for the linear-time engine here, so a pattern that
 * could freeze the gate is refused at load, naming the file, the rule and the field.
 * Contract: never throws.
 */
export function parsePolicyText(
  file: string,
  text: string,
  source: 'user' | 'project' | 'managed',
): { ok: true; rules: LoadedRule[] } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { ok: false, error: `${file}: not valid JSON (${(err as Error).message})` };
  }
  const parsed = PolicyFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `${file}: ${describeZodError(parsed.error)}` };
  const rules: LoadedRule[] = [];
  for (const [i, rule] of parsed.data.rules.entries()) {
    const id = rule.id ?? `${source}#${i + 1}`;
    const problem = patternProblem(rule);
    if (problem)
      return { ok: false, error: `${file}: rules.${i}.${problem.field} (rule ${id}): ${problem.error}` };
    rules.push({ ...rule, id, source, file });
  }
  return { ok: true, rules };
}

/** The first pattern of a rule that cannot run in linear time, and why. */
function patternProblem(rule: PolicyRule): { field: string; error: string } | undefined {
  const patterns: [string, CompiledPattern][] = [['tool', compileBoundedGlob(rule.tool)]];
  if (rule.when?.path !== undefined) patterns.push(['when.path', compileBoundedGlob(rule.when.path)]);
  for (const [field, pattern] of Object.entries(rule.when?.regex ?? {}))
    patterns.push([`when.regex.${field}`, compileBoundedRegex(pattern)]);
  for (const [field, compiled] of patterns) if (!compiled.ok) return { field, error: compiled.error };
  return undefined;
}

/** `rules.2.decision: Invalid option: expected one of "allow"|"ask"|"deny"` — the field first. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
    .join('; ');
}
