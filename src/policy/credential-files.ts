/**
 * The one credential predicate, for every tool and for the sandbox: a file holds
 * credentials by its name (credential-names.ts: gitleaks' and secretlint's file rules, cloud key
 * files, backups of any of them) or by its first bytes (credential-content.ts). Reading one sends its
 * content to the model's provider, so the policy asks first, and the sandbox masks it.
 */
import {
  BACKUP_SUFFIX,
  NOT_SECRET_EXTENSIONS,
  NOT_SECRET_NAMES,
  SECRET_EXTENSIONS,
  SECRET_FOLDERS,
  SECRET_IN_FOLDER,
  SECRET_NAME_SHAPES,
  SECRET_NAMES,
} from './credential-names';
import { fileCredentialKind } from './credential-content';

const names = new Set(SECRET_NAMES);
const extensions = new Set(SECRET_EXTENSIONS);
const exemptNames = new Set(NOT_SECRET_NAMES);
const exemptExtensions = new Set(NOT_SECRET_EXTENSIONS);
const folders = new Set(SECRET_FOLDERS);
const inFolder = new Set(SECRET_IN_FOLDER.map(([folder, name]) => `${folder}/${name}`));

/** Lowercased base names a file may be read as: itself, without backup suffixes, and a vim swap's original. */
function baseCandidates(base: string): string[] {
  const out = [base];
  const stripped = base.replace(BACKUP_SUFFIX, '');
  if (stripped !== base && stripped !== '') {
    out.push(stripped);
    // Vim keeps `x` in `.x.swp`.
    if (stripped.startsWith('.') && stripped.length > 1) out.push(stripped.slice(1));
  }
  return out;
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1);
}

/** What a base name says on its own, over its candidates (itself, without backup suffixes, a swap's original). */
type NameInfo = { candidates: string[]; secret: boolean; anyPlain: boolean };

// A folder scan meets the same base names again and again (index.ts, package.json): remembered, bounded.
const names_ = new Map<string, NameInfo>();
const MAX_NAMES = 8192;

function nameInfo(base: string): NameInfo {
  let info = names_.get(base);
  if (info === undefined) {
    const candidates = baseCandidates(base);
    let secret = false;
    let anyPlain = false;
    for (const name of candidates) {
      if (exemptNames.has(name) || exemptExtensions.has(extension(name))) continue;
      anyPlain = true;
      if (
        names.has(name) ||
        extensions.has(extension(name)) ||
        SECRET_NAME_SHAPES.some((re) => re.test(name))
      )
        secret = true;
    }
    info = { candidates, secret, anyPlain };
    if (names_.size >= MAX_NAMES) names_.clear();
    names_.set(base, info);
  }
  return info;
}

/**
 * The same verdict for a folder scan's entry, without building its path: its name, its folder's name
 * and whether a folder above is a secret folder (`.ssh` …). Pure.
 */
export function isCredentialEntry(
  name: string,
  parent: string | undefined,
  underSecretFolder: boolean,
): boolean {
  const info = nameInfo(name.toLowerCase());
  if (info.secret) return true;
  const up = parent?.toLowerCase();
  if (up !== undefined && info.candidates.some((c) => inFolder.has(`${up}/${c}`))) return true;
  return info.anyPlain && underSecretFolder;
}

/** Whether a folder of this name makes every file under it a credential (`.ssh`, `.gnupg` …). */
export function isSecretFolder(name: string): boolean {
  return folders.has(name.toLowerCase());
}

/** The verdict for lowercased path segments (the last is the base name). */
function judgeSegments(segments: readonly string[]): boolean {
  const base = segments[segments.length - 1] ?? '';
  if (base === '' || base === '.' || base === '..') return false;
  const info = nameInfo(base);
  if (info.secret) return true;
  const parent = segments[segments.length - 2];
  if (parent !== undefined && info.candidates.some((name) => inFolder.has(`${parent}/${name}`))) return true;
  // Every file under `.ssh`, `.gnupg` … but its public, known and config files.
  return info.anyPlain && segments.length > 1 && segments.slice(0, -1).some((s) => folders.has(s));
}

/**
 * Why an exact-text edit of a credential file is refused, and what to do instead: its answers (no match,
 * two matches, the nearest lines) would tell the model what the file holds without a person seeing it.
 */
export const CREDENTIAL_EDIT =
  'Ask the person to change it, or read it (a person approves that) and send the whole new content with write_file.';

// A session asks about the same paths again and again (a burst of reads, every word of every
// command): verdicts are remembered, bounded.
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;

/** Whether a project-relative (or absolute) `/`-separated path names a credential file. Pure. */
export function isCredentialPath(path: string): boolean {
  let verdict = verdicts.get(path);
  if (verdict === undefined) {
    const p = path
      .replace(/^\.\/+/, '')
      .replace(/\/+$/, '')
      .toLowerCase();
    verdict = p !== '' && p !== '.' && judgeSegments(p.split('/'));
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(path, verdict);
  }
  return verdict;
}

/**
 * The word of a command that names a credential file (`cat .env`, `--key-file=certs/a.pem`), if any.
 * Option values after `=` are read too. A best effort: `grep -r KEY .` reads `.env` without naming it.
 */
export function credentialWord(words: readonly string[]): string | undefined {
  for (const word of words) {
    const value = word.startsWith('-') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
    if (isCredentialPath(value)) return value;
  }
  return undefined;
}

/**
 * ripgrep globs that keep credential files out of a folder search, from the same data; what a glob
 * cannot say (backups, content) the search's caller checks on each file it returns (`isCredentialFile`).
 */
export const CREDENTIAL_RG_EXCLUDES: readonly string[] = [
  ...SECRET_NAMES.map((n) => `--iglob=!${n}`),
  ...SECRET_EXTENSIONS.map((e) => `--iglob=!*.${e}`),
  ...['client_secret*.json', 'service*account*.json', '*firebase-adminsdk*.json', '*.tfstate*'].map(
    (g) => `--iglob=!${g}`,
  ),
  ...SECRET_IN_FOLDER.map(([folder, name]) => `--iglob=!**/${folder}/${name}`),
  ...SECRET_FOLDERS.map((f) => `--iglob=!**/${f}/**`),
];

/**
 * Whether the file at `relative` (project-relative, `/`-separated) whose real path is `real` is a
 * credential file, by name (of the path asked for and of where it really is: a link named
 * `notes.txt` to `.env` counts) or by content. What it names is returned: the path, or the kind of
 * credential its content holds. Contract: never throws.
 */
export function credentialFile(relative: string, real: string, realRelative?: string): string | undefined {
  if (isCredentialPath(relative)) return relative;
  if (realRelative !== undefined && realRelative !== relative && isCredentialPath(realRelative))
    return realRelative;
  const kind = fileCredentialKind(real);
  return kind === undefined ? undefined : `${relative} (holds ${kind})`;
}
