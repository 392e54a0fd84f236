import type { ApprovalPreview } from '../protocol';
import { CREDENTIAL_EDIT, isCredentialPath } from '../policy/credential-files';
import type { CallFacts } from '../policy/facts';
import { entryWarning } from '../policy/network-hosts';
import { formatBytes } from '../text/bytes';
import { type FileRead, readFileSafely } from '../tools/fs/safe-fs';
import { looksBinary, shownText } from '../tools/fs/text-bytes';
import type { AnyTool } from '../tools/types';
import { hashContent } from './hash';

const PREVIEW_LIMIT_BYTES = 5 * 1024 * 1024;

/** `invalid`: a declared text edit that cannot apply to the file as it is (nobody is asked; the model gets it). */
export type Preview = { preview: ApprovalPreview; fileHash?: string; invalid?: string };

/** What a tool declares of its own card: its preview (a plan, a question) and the lines saying what it will do. */
export type DeclaredPreview = {
  preview?: () => ApprovalPreview | undefined;
  effects?: () => Promise<string[]>;
  /** A write that changes the file's current text (edit_file): the diff's `after`, from the text the card shows. */
  editText?: (before: string) => { ok: true; after: string } | { ok: false; error: string };
};

/** What `tool` declares of its card for these (schema-valid) arguments. */
export function declaredOf(tool: AnyTool, args: Record<string, unknown>): DeclaredPreview {
  const { preview, describeEffects, editText } = tool;
  return {
    ...(preview ? { preview: () => preview(args) } : {}),
    ...(describeEffects ? { effects: () => describeEffects(args) } : {}),
    ...(editText ? { editText: (before: string) => editText(args, before) } : {}),
  };
}

/**
 * What the person sees before deciding: the diff of a write, the details of a command, or what the
 * tool declares (its plan, its question, its effects). Also hashes the target of a write, so a change
 * after approval is caught.
 * Contract: an unreadable file previews as empty with its hash 'unreadable'; a declared preview that
 * throws rejects (the gate fails the call closed).
 */
export async function buildPreview(
  facts: CallFacts,
  defaultTimeoutMs: number,
  declared: DeclaredPreview = {},
): Promise<Preview> {
  if (facts.kind === 'write' && (facts.content !== undefined || declared.editText)) {
    const target = facts.paths[0]?.verdict;
    if (target?.ok) {
      const before = await readExisting(target.path);
      const edited = facts.content === undefined ? editedText(before, target.relative, declared) : undefined;
      if (edited && !edited.ok)
        return { preview: { kind: 'json' }, fileHash: before.hash, invalid: edited.error };
      return {
        preview: {
          kind: 'diff',
          path: target.relative,
          before: before.text ?? '',
          after: edited?.ok ? edited.after : (facts.content ?? ''),
          isNew: before.text === undefined,
          ...(before.binary ? { binary: true as const } : {}),
        },
        fileHash: before.hash,
      };
    }
  }
  if (facts.command) {
    const cwd = facts.commandCwd;
    return {
      preview: {
        kind: 'command',
        command: facts.commandText ?? '',
        cwd: cwd?.ok ? cwd.path : '.',
        timeoutMs: facts.timeoutMs ?? defaultTimeoutMs,
        sandboxed: facts.sandboxed,
        parts: facts.command.parts.map((p) => p.text),
        notes: [
          ...(facts.command.kind === 'cannot_judge' ? [facts.command.reason] : []),
          ...facts.command.notes,
          ...offlineNote(facts),
        ],
        ...(facts.writes?.length ? { writes: facts.writes.map(shownWrite) } : {}),
        ...(facts.network ? { network: shownHosts(facts.network) } : {}),
      },
    };
  }
  const own = declared.preview?.();
  if (own) return { preview: own };
  const effects = await declared.effects?.().catch(() => undefined);
  return { preview: effects?.length ? { kind: 'json', effects } : { kind: 'json' } };
}

/** A declared text edit over the file as read: only a readable text file can be edited (and shown). */
function editedText(
  before: Existing,
  shown: string,
  declared: DeclaredPreview,
): { ok: true; after: string } | { ok: false; error: string } | undefined {
  if (!declared.editText) return undefined;
  // Whether an edit applies says what the file holds (match counts, nearest lines): not for secrets.
  if (isCredentialPath(shown))
    return {
      ok: false,
      error: `${shown} is a credential file; it is not edited by exact text. ${CREDENTIAL_EDIT}`,
    };
  if (before.state !== 'text') {
    const why: Record<Existing['state'], string> = {
      absent: 'does not exist; create it with write_file',
      binary: 'is a binary file; only text files can be edited',
      'too-large': 'is too large to show as a diff (over 5 MB), so it cannot be edited',
      'not-file': 'is not a regular file',
      unreadable: 'cannot be read',
      text: '',
    };
    return { ok: false, error: `${shown} ${why[before.state]}; nothing was written.` };
  }
  try {
    return declared.editText(before.text ?? '');
  } catch (err) {
    return { ok: false, error: `${shown}: the edit could not be applied (${(err as Error).message}).` };
  }
}

/** A command the judge says uses the network, but that names no hosts: it will run offline. */
function offlineNote(facts: CallFacts): string[] {
  const online = facts.command?.notes.some((n) => n.startsWith('uses network'));
  return online && !facts.network && facts.sandboxed
    ? [
        'it names no hosts (`network`), so it runs with the network off; edit the call to add the hosts it needs',
      ]
    : [];
}

type ShownHost = NonNullable<Extract<ApprovalPreview, { kind: 'command' }>['network']>[number];

/** The hosts a command asks to reach, as the card lists them: with a warning for this machine's or a private address. */
function shownHosts(network: NonNullable<CallFacts['network']>): ShownHost[] {
  return network.entries.map((entry) => {
    const warning = entryWarning(entry);
    const listed = !network.unlisted.includes(entry);
    return {
      host: entry.text,
      ...(warning ? { warning } : {}),
      ...(listed ? { listed: true as const } : {}),
    };
  });
}

type ShownWrite = NonNullable<Extract<ApprovalPreview, { kind: 'command' }>['writes']>[number];

/** A command's write target as the card lists it: project-relative when inside, flagged when protected. */
function shownWrite(w: NonNullable<CallFacts['writes']>[number]): ShownWrite {
  if (w.dynamic) return { path: w.target.replaceAll('\u0000', ''), dynamic: true };
  if (!w.verdict.ok) return w.scratch ? { path: w.target, scratch: true } : { path: w.target };
  const path = w.verdict.relative === '' ? '.' : w.verdict.relative;
  return w.verdict.protectedBy ? { path, protected: w.verdict.protectedBy } : { path };
}

/**
 * The current content and hash of a file a write will replace ('absent' when it does not exist).
 * Read through a verified descriptor (safe-fs.ts): a swapped folder cannot put an outside file on the
 * card. A binary file (a NUL byte anywhere) is described, not shown, and flagged `binary`.
 */
export async function readExisting(path: string): Promise<Existing> {
  try {
    const found = await readFileSafely({ path }, PREVIEW_LIMIT_BYTES);
    const hash = hashOfRead(found);
    switch (found.kind) {
      case 'absent':
        return { state: 'absent', hash };
      case 'not-file':
        return { state: 'not-file', hash };
      case 'too-large':
        return {
          state: 'too-large',
          text: `(existing file of ${found.size} bytes is too large to preview)`,
          hash,
        };
      case 'file':
        if (looksBinary(found.bytes)) {
          return {
            state: 'binary',
            text: `(binary file of ${formatBytes(found.size)}, not shown: the text below replaces all of it)`,
            hash,
            binary: true,
          };
        }
        return { state: 'text', text: shownText(found.bytes), hash };
    }
  } catch {
    return { state: 'unreadable', text: '', hash: 'unreadable' };
  }
}

/**
 * The hash a card binds for a write target as read: its content's, or for a file too large to
 * preview its size and modification time. A read with a larger cap (a tool's own) hashes the same
 * file the same way, so a tool can hold what it reads to the card without the gate reading it first.
 */
export function hashOfRead(found: FileRead): string {
  switch (found.kind) {
    case 'absent':
      return hashContent(undefined);
    case 'not-file':
      return 'not-a-file';
    case 'too-large':
      return `size:${found.size}:${found.mtimeMs}`;
    case 'file':
      return found.size > PREVIEW_LIMIT_BYTES
        ? `size:${found.size}:${found.mtimeMs}`
        : hashContent(found.bytes);
  }
}

/** A write target as the card and the token see it: what it is, its text when shown, and its hash. */
export type Existing = {
  state: 'absent' | 'text' | 'binary' | 'too-large' | 'not-file' | 'unreadable';
  text?: string;
  hash: string;
  binary?: true;
};
